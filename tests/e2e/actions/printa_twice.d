#pragma D option quiet

BEGIN
{
	@n = count();
	printa("first %@d\n", @n);
	@n = count();
}

BEGIN
{
	printa("second %@d\n", @n);
	exit(0);
}
