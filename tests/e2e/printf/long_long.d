#pragma D option quiet

BEGIN
{
	printf("%lld %llu %llx\n", (long long)-2, (unsigned long long)-1, (unsigned long long)-1);
	exit(0);
}
