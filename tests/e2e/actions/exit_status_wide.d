/* calls is made by ++, so it is an int64_t; exit() still records an int */
BEGIN
{
	calls++;
	calls++;
}

BEGIN
{
	exit(calls + 0x100000000LL);
}
