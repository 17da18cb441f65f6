BEGIN
{
	@l = lquantize(5, 0, 10, 20);
}
