BEGIN
{
	@stat = 5;
}
