#pragma D option quiet

BEGIN
{
	printf("%llu\n", (unsigned long long)10000000000);
	exit(0);
}
