BEGIN
{
	@l = lquantize(5, 0, 1000000, 1);
}
