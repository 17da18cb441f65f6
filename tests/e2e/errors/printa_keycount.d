BEGIN
{
	@a[execname] = count();
	@b[execname, pid] = count();
}

END
{
	printa(@a, @b);
}
