#pragma D option quiet

BEGIN
{
	@c["b"] = count();
	@c["a"] = count();
	@c["b"] = count();
	exit(0);
}

END
{
	printa("%s %@d\n", @c);
}
