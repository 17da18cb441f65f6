BEGIN
{
	trace(1);
}

tick-10ms
{
	exit(0);
}
