BEGIN
{
	@stat = count(1);
}
