BEGIN
{
	@l = lquantize(5, 0, 100, 10);
	@l = lquantize(5, 0, 100, 5);
}
