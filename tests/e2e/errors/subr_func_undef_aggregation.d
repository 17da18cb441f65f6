BEGIN
{
	@calls = count();
	@calls();
}
