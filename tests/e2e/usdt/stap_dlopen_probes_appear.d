usdtdl$target:::call,
usdtdl$target:::guarded
{
	@[probemod, probefunc, probename, arg0] = count();
}
