#pragma D option quiet

BEGIN
{
	@n = sum(41);
	@n = sum(1);
	printa("total %@d\n", @n);
	exit(0);
}
