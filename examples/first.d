/*
 * A first D program: timed output from tick, a quantize distribution of
 * the intervals between profile firings, and printa formatting.
 */
#pragma D option quiet

BEGIN
{
	printf("Sampling for one second...\n");
	start = timestamp;
}

profile-997
{
	@samples[cpu] = count();
	@gap = quantize(timestamp - start);
}

tick-200ms
{
	printf("%3d ms elapsed\n", (timestamp - start) / 1000000);
}

tick-1s
{
	exit(0);
}

END
{
	printa("CPU %2d took %@d samples\n", @samples);
	printa(@gap);
}
