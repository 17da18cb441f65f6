#pragma D option quiet
#pragma D option aggpack
#pragma D option encoding=utf8

/* aggpack with -x encoding=utf8: the levels are the rising blocks U+2581..U+2588. */
BEGIN
{
	@q["a"] = quantize(1);
	@q["a"] = quantize(2);
	@q["a"] = quantize(2);
	@q["b"] = quantize(8);
	@l = lquantize(3, 0, 10, 5);
	exit(0);
}
