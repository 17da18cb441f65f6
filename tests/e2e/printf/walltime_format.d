#pragma D option quiet

BEGIN
{
	printf("%Y\n", (int64_t)1234567890000000000);
	exit(0);
}
