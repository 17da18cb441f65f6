BEGIN
{
	@l = llquantize(5, 10, 1, 6, 25);
}
