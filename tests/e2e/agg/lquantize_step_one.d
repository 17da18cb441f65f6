#pragma D option quiet

BEGIN
{
	@l = lquantize(3, 0, 5);
	@l = lquantize(4, 0, 5);
	@l = lquantize(4, 0, 5);
	exit(0);
}
