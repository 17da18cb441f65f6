BEGIN
{
	commit(1);
	@c = count();
}
