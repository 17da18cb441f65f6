BEGIN
{
	printf("%Y\n", (int)walltimestamp);
	exit(0);
}
