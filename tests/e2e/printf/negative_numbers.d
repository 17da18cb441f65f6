#pragma D option quiet

BEGIN
{
	printf("%d %d %i\n", -1, (long long)-1, -42);
	exit(0);
}
