#pragma D option quiet

BEGIN
{
	@q["small"] = quantize(1);
	@q["big"] = quantize(64);
	@q["big"] = quantize(64);
	exit(0);
}
