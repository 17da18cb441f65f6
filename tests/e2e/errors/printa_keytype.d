BEGIN
{
	@c[pid] = count();
}

END
{
	printa("%s %@d\n", @c);
}
