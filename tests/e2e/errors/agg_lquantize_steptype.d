BEGIN
{
	@l = lquantize(5, 0, 100, 0);
}
