BEGIN
{
	printf("%**d\n", 1, 2, 3);
	exit(0);
}
