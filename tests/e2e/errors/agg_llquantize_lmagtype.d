BEGIN
{
	@l = llquantize(5, 10, timestamp, 6, 20);
}
