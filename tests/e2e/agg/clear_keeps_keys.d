#pragma D option quiet

BEGIN
{
	@c["a"] = count();
	@c["b"] = count();
	printa("before %s %@d\n", @c);
	clear(@c);
	printa("after %s %@d\n", @c);
	exit(0);
}
