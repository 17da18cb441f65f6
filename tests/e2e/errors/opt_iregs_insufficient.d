/* Two registers, %r0 and %r1, leave one for code: x + y needs two. */
BEGIN
{
	x = 1;
	y = 2;
	trace(x + y);
	exit(0);
}
