BEGIN
{
	@c[execname] = count();
}

END
{
	printa("%s %@s\n", @c);
}
