#pragma D option quiet

BEGIN
{
	printf("%lld\n", (long long)0x7fffffffffffffff);
	exit(0);
}
