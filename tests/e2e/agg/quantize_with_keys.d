#pragma D option quiet

BEGIN
{
	@q["x"] = quantize(4);
	@q["y"] = quantize(1);
	exit(0);
}
