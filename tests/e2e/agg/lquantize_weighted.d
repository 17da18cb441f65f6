#pragma D option quiet

BEGIN
{
	@l = lquantize(2, 0, 10, 1, 5);
	@l = lquantize(7, 0, 10, 1, 2);
	exit(0);
}
