#pragma D option quiet
#pragma D option dynvarsize=15

/*
 * 15 bytes give one chunk (DTrace's dtrace_dstate_init() raises the size to
 * one chunk and its hash bucket): self->b cannot be stored.  As in DTrace,
 * the drop is counted and ends its clause (CPU_DTRACE_DROP is one of
 * CPU_DTRACE_ERROR's bits, which stop dtrace_probe()'s action loop), so this
 * clause's exit() never runs; another clause's does.
 */
BEGIN
{
	self->a = 1;
	self->b = 2;
	self->c = 3;
	exit(0);
}

tick-1s
{
	printf("the clause that dropped did not exit\n");
	exit(0);
}
