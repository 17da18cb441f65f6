BEGIN
{
	@l = lquantize(5, 0, timestamp, 10);
}
