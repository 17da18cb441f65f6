BEGIN
{
	@stat = sum();
}
