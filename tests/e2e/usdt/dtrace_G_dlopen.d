usdtgl$target:::call
{
	@[probemod, probefunc, probename, arg0] = count();
}
