#pragma D option quiet
#pragma D option nspec=1

/*
 * A speculation discarded before anything was speculated stays busy until
 * the cleaner runs: the two speculation() calls that follow at once fail,
 * and DTrace counts them as "still busy", not as unavailable.
 */
BEGIN
{
	s = speculation();
}

BEGIN
{
	discard(s);
}

BEGIN
{
	t = speculation();
	u = speculation();
	printf("%d %d %d\n", s, t, u);
	exit(0);
}
