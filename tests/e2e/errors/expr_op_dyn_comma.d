BEGIN
{
	@c = count();
	x = (@c, 1);
}
