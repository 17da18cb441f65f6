BEGIN
{
	@l = llquantize(5, 10, 0, 65536, 20);
}
