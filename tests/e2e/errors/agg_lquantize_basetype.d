BEGIN
{
	lo = 0;
	@l = lquantize(5, lo, 100, 10);
}
