tick-1ms
{
	@c = count();
}

tick-1ms
/++n == 5/
{
	exit(0);
}
