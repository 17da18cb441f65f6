BEGIN
{
	@c = count();
}

END
{
	printa("%@d %@d\n", @c, 10);
}
