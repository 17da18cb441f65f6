#pragma D option quiet

BEGIN
{
	@q["k"] = quantize(2);
	printa(@q);
	exit(0);
}
