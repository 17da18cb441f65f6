/* The pragma holds the code of its own program to one register. */
#pragma D option iregs=2
BEGIN
{
	x = 1;
	y = 2;
	trace(x + y);
	exit(0);
}
