#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", 1 < 2, 2 <= 1, 3 == 3, 3 != 3);
	exit(0);
}
