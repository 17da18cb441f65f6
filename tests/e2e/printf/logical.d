#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", 1 && 0, 1 || 0, !5);
	exit(0);
}
