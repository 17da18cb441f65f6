#pragma D option quiet

/*
 * normalize() of a negative sum: DTrace's default layout divides the value
 * as an unsigned number ((long long) of the value over the unsigned factor),
 * so -30 / 2 prints as 2^63 - 15; positive sums divide as usual.
 */
BEGIN
{
	@s["a"] = sum(-30);
	@s["b"] = sum(40);
	normalize(@s, 2);
	exit(0);
}
