BEGIN
{
	@l = lquantize(5, 0);
}
