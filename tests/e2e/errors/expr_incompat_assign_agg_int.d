BEGIN
{
	@c = count();
	x = 1;
	x = @c;
}
