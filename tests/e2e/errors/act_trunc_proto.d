BEGIN
{
	@a = count();
	trunc(@a, 5, 10);
}
