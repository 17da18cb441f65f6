BEGIN
{
	x = (int)1;
	printf("%%ld: %ld\n", x);
	exit(0);
}
