#pragma D option quiet

/* these clauses never fire: their aggregations have no tuple at all */
BEGIN
/0/
{
	@lat[1] = quantize(10);
	@lin[1] = lquantize(3, 0, 5, 1);
}

BEGIN
{
	@calls[1] = sum(4);
	@calls[2] = sum(6);
	printa("%d %@d:%@d\n", @calls, @lat);
	printa("%d %@d:%@d\n", @calls, @lin);
	exit(0);
}
