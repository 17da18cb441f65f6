/*
 * The CPU column of the default output names the processor the probe fired
 * on, the same number as the D variable `cpu`: tick and profile fire on
 * threads pinned to a processor, whose buffer slot is that processor's.
 * The .sed drops each record whose column and traced `cpu` agree and turns
 * any other into "differs".
 */
int n;
int m[int];

tick-10ms
/n < 3/
{
	n++;
	trace(cpu);
}

profile-97
/!m[cpu]/
{
	m[cpu] = 1;
	trace(cpu);
}

tick-150ms
{
	printf("done");
	exit(0);
}
