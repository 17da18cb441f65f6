BEGIN
{
	@c[execname] = count();
	@c[execname, pid] = count();
}
