BEGIN
{
	@l = llquantize(5, 2, 0, 6, 20);
}
