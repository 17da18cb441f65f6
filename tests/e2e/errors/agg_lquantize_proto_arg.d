BEGIN
{
	@l = lquantize(5, "zero", 100, 10);
}
