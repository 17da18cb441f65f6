BEGIN
{
	@l = llquantize(5, 10, 0, 6, 3);
}
