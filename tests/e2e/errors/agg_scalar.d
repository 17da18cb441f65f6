BEGIN
{
	@stat = sum(execname);
}
