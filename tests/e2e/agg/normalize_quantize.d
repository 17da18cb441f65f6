#pragma D option quiet

BEGIN
{
	@q = quantize(4);
	@q = quantize(4);
	@q = quantize(4);
	@q = quantize(4);
	normalize(@q, 2);
	exit(0);
}
