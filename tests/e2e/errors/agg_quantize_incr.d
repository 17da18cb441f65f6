BEGIN
{
	@q = quantize(10, "one");
}
