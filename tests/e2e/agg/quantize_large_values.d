#pragma D option quiet

BEGIN
{
	@q = quantize(1000);
	@q = quantize(1024);
	@q = quantize(5000000);
	exit(0);
}
