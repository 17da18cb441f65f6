BEGIN
{
	@a = count();
	@b = count();
	clear(@a, @b);
}
