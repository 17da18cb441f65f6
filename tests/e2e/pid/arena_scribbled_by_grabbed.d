/*
 * Probes firing in dtrace itself (BEGIN, tick-N, END) with aggregations,
 * speculations, global and associative variables, while the traced
 * program scribbles over the arena's writable part.
 */
#pragma D option quiet
#pragma D option bufsize=64k
#pragma D option aggsize=64k
#pragma D option specsize=16k
#pragma D option nspec=4
#pragma D option dynvarsize=64k
#pragma D option switchrate=50hz
#pragma D option aggrate=50hz

BEGIN
{
	start = timestamp;
	b["begin"] = 1;
}

tick-5ms
{
	@count = count();
	@q = quantize(timestamp % 1000);
	@k[timestamp % 7] = sum(1);
	a[timestamp % 32] = timestamp;
	spec = speculation();
}

tick-5ms
/spec/
{
	speculate(spec);
	printf("speculative %d\n", a[timestamp % 32]);
}

tick-5ms
/spec && (timestamp & 1)/
{
	commit(spec);
}

tick-5ms
/spec && !(timestamp & 1)/
{
	discard(spec);
}

tick-5ms
{
	printf("tick %d\n", a[timestamp % 32]);
}

tick-1s
/++n == 3/
{
	exit(0);
}

END
{
	printa("%@d\n", @count);
	printf("END fired\n");
}
