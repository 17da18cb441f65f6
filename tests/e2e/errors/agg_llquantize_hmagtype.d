BEGIN
{
	@l = llquantize(5, 10, 0, pid, 20);
}
