#pragma D option quiet

BEGIN
{
	printf("%d\n", (int)0x80000000);
	exit(0);
}
