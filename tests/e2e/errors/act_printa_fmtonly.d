BEGIN
{
	@c = count();
}

END
{
	printa("%@d\n");
}
