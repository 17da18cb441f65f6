BEGIN
{
	@l = llquantize(5, 4, 1, 6, 12);
}
