#pragma D option quiet

BEGIN
{
	printf("%d\n", id);
	exit(0);
}
