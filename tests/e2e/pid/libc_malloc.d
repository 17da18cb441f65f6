pid$target:libc.so.6:malloc:entry
/arg0 == 12345/
{
	@["malloc(12345)"] = count();
}
