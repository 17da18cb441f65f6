/* @c alone names an aggregation already assigned: only @c = f() and @c[...] make one */
BEGIN
{
	x = @c + 1;
}
