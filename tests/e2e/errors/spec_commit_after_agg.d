BEGIN
{
	@total = sum(1);
	commit(1);
}
