BEGIN
{
	@a = sum(10);
	normalize(@a, "ten");
}
