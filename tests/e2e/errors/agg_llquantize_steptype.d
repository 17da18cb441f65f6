BEGIN
{
	s = 20;
	@l = llquantize(5, 10, 0, 6, s);
}
