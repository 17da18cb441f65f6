/*
 * Minutes, hours and days in every spelling name profile and tick probes
 * (the script matches all of them and tick-100ms); none fires during the run.
 * Not quiet, so dtrace reports the match; the .sed drops the CPU columns.
 */
int fired;

profile-1m, profile-1min, profile-1h, profile-1hour, profile-1d, profile-1day,
tick-1m, tick-1min, tick-1h, tick-1hour, tick-1d, tick-1day
{
	fired++;
}

tick-100ms
{
	printf("fired: %d\n", fired);
	exit(0);
}
