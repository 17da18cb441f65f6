BEGIN
{
	f = 10;
	@l = llquantize(5, f, 0, 6, 20);
}
