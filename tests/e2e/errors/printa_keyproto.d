BEGIN
{
	@a[execname] = count();
	@b[pid] = sum(1);
}

END
{
	printa(@a, @b);
}
