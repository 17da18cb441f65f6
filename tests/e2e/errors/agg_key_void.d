BEGIN
{
	@c[(void)0] = count();
}
