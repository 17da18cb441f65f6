#pragma D option quiet

BEGIN
{
	printf("%llX\n", (unsigned long long)-1);
	exit(0);
}
