#pragma D option quiet

int never;

BEGIN
{
	printf("%d\n", never);
	exit(0);
}
