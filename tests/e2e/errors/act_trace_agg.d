BEGIN
{
	@calls = count();
}

END
{
	trace(@calls);
}
