#pragma D option quiet

BEGIN
{
	printf("%p\n", 0x1234);
	exit(0);
}
