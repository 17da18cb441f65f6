BEGIN
{
	@l = llquantize(5, 10, 0, 6, 10);
	@l = llquantize(5, 5, 0, 6, 25);
}
