#pragma D option quiet

BEGIN
{
	@c["b"] = count();
	@c["a"] = count();
	exit(0);
}

END
{
	printa(@c);
}
