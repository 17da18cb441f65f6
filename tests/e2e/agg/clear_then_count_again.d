#pragma D option quiet

tick-10ms
{
	@c = count();
}

tick-10ms
/++n == 3/
{
	clear(@c);
	@c = count();
	printa("after clear %@d\n", @c);
	exit(0);
}
