#pragma D option quiet

int never;

BEGIN
{
	x = 10;
	x += 5;
	x -= 3;
	x *= 2;
	x /= 4;
	printf("%d\n", x);
	exit(0);
}
