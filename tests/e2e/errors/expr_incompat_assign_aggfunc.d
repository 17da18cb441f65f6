/* an aggregating function outside an aggregation assignment is a void value */
BEGIN
{
	x = count();
}
