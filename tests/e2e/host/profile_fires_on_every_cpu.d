/*
 * profile-N fires on every CPU this process may run on, and `cpu` is a
 * real processor id.  $1: processors available (nproc), $2: processors
 * configured (ids are below it).  Each CPU marks its own key, so nothing
 * races; the check walks the keys one tick-1ms at a time on the single
 * tick thread.
 */
#pragma D option quiet

int halt, bad, k, nseen;
int seen[int];

profile-1000hz
/!halt/
{
	seen[cpu] = 1;
	bad += cpu >= $2;
}

tick-200ms
/!halt/
{
	halt = 1;
}

tick-1ms
/halt && k < $2/
{
	nseen += seen[k];
	k++;
}

tick-1ms
/halt && k == $2/
{
	printf("profile fired on every CPU: %s\n", nseen == $1 ? "yes" : "no");
	printf("cpu within [0, ncpus): %s\n", bad == 0 ? "yes" : "no");
	exit(0);
}
