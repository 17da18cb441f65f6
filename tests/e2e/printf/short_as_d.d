#pragma D option quiet

BEGIN
{
	printf("%d\n", (short)1234);
	exit(0);
}
