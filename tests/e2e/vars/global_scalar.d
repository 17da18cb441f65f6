#pragma D option quiet

int never;

BEGIN
{
	x = 41;
	x++;
	printf("%d\n", x);
	exit(0);
}
