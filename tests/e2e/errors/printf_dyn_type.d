BEGIN
{
	printf("%*d\n", "wide", 1);
	exit(0);
}
