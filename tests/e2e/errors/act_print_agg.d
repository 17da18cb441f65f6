BEGIN
{
	@calls = count();
}

END
{
	print(@calls);
}
