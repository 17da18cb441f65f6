BEGIN
{
	@c = count();
}

END
/@c/
{
	trace(1);
}
