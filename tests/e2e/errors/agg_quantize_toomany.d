BEGIN
{
	@q = quantize(10, 1, 2);
}
