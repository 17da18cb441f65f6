BEGIN
{
	@l = lquantize(5, 0x100000000, 0x100000010, 1);
}
