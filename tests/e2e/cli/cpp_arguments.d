BEGIN
{
	printf("%d\n", FROM_DTRACE);
	exit(0);
}
