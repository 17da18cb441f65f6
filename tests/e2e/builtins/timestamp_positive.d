#pragma D option quiet

BEGIN
{
	printf("%d\n", timestamp > 0);
	exit(0);
}
