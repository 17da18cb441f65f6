BEGIN
{
	@l = llquantize(5, 10, 70000, 70001, 20);
}
