BEGIN
{
	@n = count();
	speculate(speculation());
}
