BEGIN
{
	printf("COUNT is %d\n", COUNT);
	exit(0);
}
