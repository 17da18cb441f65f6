#pragma D option quiet

BEGIN
{
	@l = llquantize(5, 2, 1, 3, 4);
	@l = llquantize(100, 2, 1, 3, 4);
	@l = llquantize(1, 2, 1, 3, 4);
	exit(0);
}
