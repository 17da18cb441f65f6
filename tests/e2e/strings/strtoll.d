#pragma D option quiet

BEGIN
{
	printf("%d %d\n", strtoll("123"), strtoll("ff", 16));
	exit(0);
}
