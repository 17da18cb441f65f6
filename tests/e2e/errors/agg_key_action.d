BEGIN
{
	@c[exit(0)] = count();
}
