BEGIN
{
	@l = lquantize(5, 100, 0, 10);
}
