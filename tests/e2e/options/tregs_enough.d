/* Three keys fit in three tuple registers. */
BEGIN
{
	a[1, 2, 3] = 4;
	trace(a[1, 2, 3]);
	exit(0);
}
