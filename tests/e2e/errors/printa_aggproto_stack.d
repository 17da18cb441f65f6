/* a stack key and an integer key do not match across printa's aggregations */
BEGIN
{
	@a[stack()] = count();
	@b[1] = count();
	printa(@a, @b);
}
