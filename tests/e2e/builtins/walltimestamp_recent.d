#pragma D option quiet

BEGIN
{
	printf("%d\n", walltimestamp > (int64_t)1600000000 * 1000000000);
	exit(0);
}
