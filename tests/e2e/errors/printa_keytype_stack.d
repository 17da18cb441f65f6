/* the first key is a stack and may be printed with %k; the second is not */
BEGIN
{
	@c[stack(), pid] = count();
}

END
{
	printa("%k %k %@d\n", @c);
}
