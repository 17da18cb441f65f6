#pragma D option quiet

BEGIN
{
	@a[1] = count();
	@a[2] = count();
	@b[2] = sum(9);
	printa("%d %@d %@d\n", @a, @b);
	exit(0);
}
