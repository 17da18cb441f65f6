BEGIN
{
	freopen(".");
}
