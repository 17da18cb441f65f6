BEGIN
{
	@l = llquantize(5, 10, 0, 19, 20);
}
