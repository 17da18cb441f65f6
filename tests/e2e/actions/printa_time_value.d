/*
 * %@Y and %@T format an aggregation's value as a time in nanoseconds since
 * the epoch, as they format a traced one: DTrace gives count(), sum(), min()
 * and max() values to the conversion's own formatting.
 */
#pragma D option quiet

BEGIN
{
	/* 2009-02-13 23:31:30 UTC */
	@early["lo"] = min(1234567890000000000);
	@late["hi"] = max(1234567890000000000 + 86400000000000);
	@tally = count();
	printa("%s: %@Y / %@T\n", @early);
	printa("%s: %@Y / %@T\n", @late);
	printa("[%-24@Y]\n", @tally);
	exit(0);
}
