profile-997
/pid == $target/
{
	@[ufunc(arg1)] = count();
	/* the caller too: under qemu-user a signal is delivered when the
	 * emulated system call returns, so most samples of spin() land in the
	 * libc clock_gettime it calls */
	@[ufunc(ucaller)] = count();
}

tick-2s
{
	printa("%A\n", @);
	exit(0);
}
