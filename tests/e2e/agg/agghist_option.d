#pragma D option quiet
#pragma D option agghist

/*
 * agghist: count() and sum() aggregations print as histograms, each bar
 * scaled to its aggregation's total, under a header whose "key" column is
 * as wide as the keys; with values of both signs the bars meet at a center
 * line.  Other aggregating functions print as usual.
 */
BEGIN
{
	@c["a"] = count();
	@c["b"] = count();
	@c["b"] = count();
	@c["b"] = count();
	@s[1] = sum(10);
	@s[2] = sum(-30);
	@m = max(5);
	exit(0);
}
