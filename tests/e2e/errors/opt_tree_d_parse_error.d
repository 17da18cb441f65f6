/*
 * -x tree=8: DTrace's parser finds the bad offsetof before any clause is
 * printed back as D, so the first clause is not printed either.
 */
BEGIN
{
	x = 1;
}

END
{
	y = offsetof(int, a);
}
