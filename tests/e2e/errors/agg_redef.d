BEGIN
{
	@stat = count();
}

END
{
	@stat = sum(1);
}
