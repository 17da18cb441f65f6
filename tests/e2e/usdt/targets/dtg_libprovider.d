/* The provider of dtglib.c (a library built with dtrace -G). */
provider usdtgl {
	probe call(int);
};
