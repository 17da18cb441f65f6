#pragma D option quiet

BEGIN
{
	printf("%llx\n", (long long)0x123456789a);
	exit(0);
}
