BEGIN
{
	@l = llquantize(5, 10, 6, 2, 20);
}
