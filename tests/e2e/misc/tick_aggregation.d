#pragma D option quiet

BEGIN
{
	n = 0;
}

tick-10ms
/n < 4/
{
	@ticks = count();
	n++;
}

tick-10ms
/n == 4/
{
	exit(0);
}
