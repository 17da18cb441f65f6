#pragma D option quiet

BEGIN
{
	@l = lquantize(-5, 0, 100, 10);
	@l = lquantize(50, 0, 100, 10);
	@l = lquantize(500, 0, 100, 10);
	exit(0);
}
