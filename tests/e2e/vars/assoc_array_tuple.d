#pragma D option quiet

int never;

BEGIN
{
	m["a", 1] = 5;
	m["a", 2] = 6;
	printf("%d %d\n", m["a", 1], m["a", 2]);
	exit(0);
}
