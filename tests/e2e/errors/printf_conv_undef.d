BEGIN
{
	printf("%d %z\n", 1, 2);
	exit(0);
}
