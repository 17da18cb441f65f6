BEGIN
{
	printf("%d %5%\n", 1);
	exit(0);
}
