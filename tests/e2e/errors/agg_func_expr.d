BEGIN
{
	@stat = timestamp - 1;
}
