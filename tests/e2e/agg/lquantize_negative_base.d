#pragma D option quiet

BEGIN
{
	@l = lquantize(-20, -50, 50, 25);
	@l = lquantize(10, -50, 50, 25);
	@l = lquantize(10, -50, 50, 25);
	exit(0);
}
