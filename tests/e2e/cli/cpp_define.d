BEGIN
{
	printf("%d\n", VALUE * 2);
	exit(0);
}
