#pragma D option quiet
#pragma D option encoding=utf8

/* -x encoding=utf8: distribution bars in full blocks and a left-eighths block for the rest. */
BEGIN
{
	@q = quantize(1);
	@q = quantize(2);
	@q = quantize(2);
	exit(0);
}
