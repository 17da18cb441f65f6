#pragma D option quiet

BEGIN
{
	@a = avg(100);
	normalize(@a, 10);
	exit(0);
}
