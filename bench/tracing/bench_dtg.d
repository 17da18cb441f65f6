/* The provider of bench_dtg.c (run.sh builds it with dtrace -h and -G). */
provider benchg {
	probe fire(long);
};
