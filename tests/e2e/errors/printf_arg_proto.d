BEGIN
{
	printf("%d and %s\n", 1);
	exit(0);
}
