BEGIN
/(void)0/
{
	exit(0);
}
