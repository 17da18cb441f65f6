BEGIN
{
	@l = lquantize(5, 0, 100, 10);
}

END
{
	@l = lquantize(5, 10, 110, 10);
}
