#pragma D option quiet

BEGIN
{
	printf("%T\n", (int64_t)1234567890 * 1000000000);
	exit(0);
}
