BEGIN
{
	@l = llquantize(5, 1, 0, 6, 20);
}
