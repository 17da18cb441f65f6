/* Three registers (%r0 and two for code) are enough for x + y. */
BEGIN
{
	x = 1;
	y = 2;
	trace(x + y);
	exit(0);
}
