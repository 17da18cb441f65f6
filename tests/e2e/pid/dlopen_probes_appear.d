pid$target:libpiddl.so:dlfunc:entry
{
	@[probemod, probefunc, arg0] = count();
}
