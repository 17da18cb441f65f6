/* (see the .sh: dtrace -G refusing objects) */
provider usdtg {
	probe start(int);
};
