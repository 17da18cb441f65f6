nosuchprovider:::
{
	trace(1);
}

BEGIN
{
	printf("zdefs\n");
	exit(0);
}
