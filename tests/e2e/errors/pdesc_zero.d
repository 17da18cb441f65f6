BEGIN
{
	exit(0);
}

nosuchprovider:::entry
{
	trace(1);
}
