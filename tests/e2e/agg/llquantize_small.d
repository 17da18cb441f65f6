#pragma D option quiet

BEGIN
{
	@l = llquantize(3, 10, 0, 2, 10);
	@l = llquantize(45, 10, 0, 2, 10);
	@l = llquantize(45, 10, 0, 2, 10);
	exit(0);
}
