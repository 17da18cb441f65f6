BEGIN
{
	printf("%x\n", __SUNW_D_VERSION);
	exit(0);
}
