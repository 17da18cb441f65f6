/* print() of an aggregation is refused, pointing at printa(). */
BEGIN
{
	@a = count();
	print(@a);
}
