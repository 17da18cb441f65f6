BEGIN
{
	@c[execname] = count();
	@c[pid] = count();
}
