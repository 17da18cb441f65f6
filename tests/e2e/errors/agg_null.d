BEGIN
{
	@stat = count();
	@stat;
}
