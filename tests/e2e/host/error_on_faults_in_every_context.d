/*
 * A bad load fires ERROR with DTrace's arguments (arg4 the fault,
 * DTRACEFLT_BADADDR = 1, arg5 the address) wherever the probe fired: BEGIN
 * on the consumer's thread, tick in the tick thread's signal handler, and
 * profile in a signal handler on every CPU (once per CPU).  Per-CPU counts
 * are per key, so nothing races; the check walks CPU ids one tick-1ms at a
 * time.  The fault messages on standard error vary with the CPU count and
 * are not compared.  $1: processors available, $2: processors configured.
 */
#pragma D option quiet

int halt, k, ticks, nbegin, ntick, nother, nprof, okprof, badargs;
int faulted[int], caught[int];

BEGIN
{
	trace(*(int *)0x10);
}

tick-10ms
/ticks < 3/
{
	ticks++;
	trace(*(char *)0x1001);
}

profile-1000hz
/!faulted[cpu] && !halt/
{
	faulted[cpu] = 1;
	trace(*(uint64_t *)0x2008);
}

ERROR
/arg4 != 1/
{
	badargs++;
}

ERROR
/arg5 == 0x10/
{
	nbegin++;
}

ERROR
/arg5 == 0x1001/
{
	ntick++;
}

ERROR
/arg5 == 0x2008/
{
	caught[cpu]++;
}

ERROR
/arg5 != 0x10 && arg5 != 0x1001 && arg5 != 0x2008/
{
	nother++;
}

tick-300ms
/!halt/
{
	halt = 1;
}

tick-1ms
/halt && k < $2/
{
	nprof += faulted[k];
	okprof += faulted[k] == caught[k];
	k++;
}

tick-1ms
/halt && k == $2/
{
	printf("BEGIN fault caught once: %s\n", nbegin == 1 ? "yes" : "no");
	printf("tick faults caught: %d\n", ntick);
	printf("profile faulted on every CPU: %s\n", nprof == $1 ? "yes" : "no");
	printf("each profile fault caught on its CPU: %s\n", okprof == $2 ? "yes" : "no");
	printf("every fault a bad address: %s\n", badargs == 0 ? "yes" : "no");
	printf("faults at other addresses: %d\n", nother);
	exit(0);
}
