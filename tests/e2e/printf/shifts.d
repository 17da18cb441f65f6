#pragma D option quiet

BEGIN
{
	printf("%d %d\n", 1 << 10, 1024 >> 3);
	exit(0);
}
