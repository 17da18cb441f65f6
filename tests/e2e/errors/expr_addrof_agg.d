BEGIN
{
	@c = count();
	y = &@c;
}
