#pragma D option quiet

int never;

BEGIN
{
	x = 5;
	y = x++;
	z = ++x;
	printf("%d %d %d\n", x, y, z);
	exit(0);
}
