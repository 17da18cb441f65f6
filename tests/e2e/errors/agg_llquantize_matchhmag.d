BEGIN
{
	@l = llquantize(5, 10, 0, 6, 20);
	@l = llquantize(5, 10, 0, 7, 20);
}
