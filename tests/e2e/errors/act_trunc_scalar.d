BEGIN
{
	@a = count();
	trunc(@a, "five");
}
