/*
 * A probe whose program tests its semaphore (SystemTap's is-enabled): the
 * guarded work runs exactly as often as the probe fires while enabled.
 */
usdtprog$target:::guarded
{
	@fired = count();
	@sum = sum(arg0);
}

END
{
	printa("fired %@d times, arguments summing to %@d\n", @fired, @sum);
}
