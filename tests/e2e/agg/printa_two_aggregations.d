#pragma D option quiet

BEGIN
{
	@c[1] = count();
	@c[2] = count();
	@c[2] = count();
	@s[2] = sum(10);
	@s[3] = sum(30);
	exit(0);
}

END
{
	printa("%d %@d %@d\n", @c, @s);
}
