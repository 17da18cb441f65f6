#pragma D option quiet

int never;

BEGIN
{
	x = 5;
	x--;
	--x;
	printf("%d\n", x);
	exit(0);
}
