/*
 * BEGIN fires before any other probe and END after every other: the
 * profile and tick probes below are enabled before BEGIN fires and still
 * armed when END fires, at 4999 Hz on every CPU, yet none of them sees
 * BEGIN's work undone or END's done.  A violation prints a line of its own;
 * updates from several CPUs may race, but a non-zero count stays non-zero.
 */
#pragma D option quiet

int began, ended, early, late, fired;
uint64_t begin_ts;

profile-4999, tick-4999
/!began/
{
	early++;
	printf("%s fired before BEGIN\n", probename);
}

profile-4999, tick-4999
/ended/
{
	printf("%s fired after END\n", probename);
}

profile-4999, tick-4999
/timestamp < begin_ts/
{
	early++;
}

profile-4999, tick-4999
{
	fired++;
}

BEGIN
{
	began = 1;
	begin_ts = timestamp;
	printf("BEGIN\n");
}

tick-100ms
{
	exit(0);
}

END
{
	ended = 1;
	printf("probes fired between BEGIN and END: %s\n", fired > 0 && early == 0 ? "yes" : "no");
	printf("END\n");
}
