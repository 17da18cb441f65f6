/* Three keys need three tuple registers. */
BEGIN
{
	a[1, 2, 3] = 1;
	exit(0);
}
