#pragma D option quiet

BEGIN
{
	printf("[%22Y]\n", (int64_t)0);
	exit(0);
}
