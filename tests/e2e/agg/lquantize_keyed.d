#pragma D option quiet

BEGIN
{
	@l[1] = lquantize(1, 0, 4, 1);
	@l[2] = lquantize(3, 0, 4, 1);
	exit(0);
}
