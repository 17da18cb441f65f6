#pragma D option quiet
#pragma D option aggpack
#pragma D option encoding=ascii

/*
 * aggpack: each quantize() tuple on one line, one character a bin over the
 * span of bins any tuple uses (one more either side), scaled to the line's
 * total; lquantize() always shows its whole range.  In ASCII the levels
 * are "_" to "X".
 */
BEGIN
{
	@q["a"] = quantize(1);
	@q["a"] = quantize(2);
	@q["a"] = quantize(2);
	@q["b"] = quantize(8);
	@l = lquantize(3, 0, 10, 5);
	exit(0);
}
