#pragma D option quiet

BEGIN
{
	@q = quantize(8, 3);
	@q = quantize(2, 1);
	exit(0);
}
