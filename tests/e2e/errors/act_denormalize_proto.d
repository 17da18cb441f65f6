BEGIN
{
	@a = sum(10);
	denormalize(@a, 10);
}
