BEGIN
{
	printf("%f\n", 1);
	exit(0);
}
