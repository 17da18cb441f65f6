#pragma D option quiet

BEGIN
{
	@l = lquantize(-1, 0, 10, 2);
	@l = lquantize(3, 0, 10, 2);
	@l = lquantize(3, 0, 10, 2);
	@l = lquantize(11, 0, 10, 2);
	exit(0);
}
