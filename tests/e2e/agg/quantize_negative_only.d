#pragma D option quiet

BEGIN
{
	@q = quantize(-1);
	@q = quantize(-100);
	@q = quantize(-100);
	exit(0);
}
