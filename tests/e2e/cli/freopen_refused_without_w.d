BEGIN
{
	freopen("/dev/null");
}
