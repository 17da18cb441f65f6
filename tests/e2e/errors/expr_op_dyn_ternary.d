BEGIN
{
	@c = count();
	x = timestamp ? @c : 1;
}
