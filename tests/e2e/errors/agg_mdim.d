BEGIN
{
	@stat[1][2] = count();
}
