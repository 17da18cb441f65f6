#pragma D option quiet

BEGIN
{
	printf("%ld\n", (long)-7);
	exit(0);
}
