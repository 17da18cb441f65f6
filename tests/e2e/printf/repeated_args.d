#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8);
	exit(0);
}
