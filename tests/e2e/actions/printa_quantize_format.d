#pragma D option quiet

BEGIN
{
	@q["k"] = quantize(1);
	@q["k"] = quantize(3);
	printa("key %s:%@d\n", @q);
	exit(0);
}
