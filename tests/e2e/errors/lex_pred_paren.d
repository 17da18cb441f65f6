BEGIN
/(pid == 1/
{
	exit(0);
}
