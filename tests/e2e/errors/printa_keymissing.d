BEGIN
{
	@c[execname] = count();
}

END
{
	printa("%s %d %@d\n", @c);
}
