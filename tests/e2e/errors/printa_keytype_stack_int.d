/* a stack key takes %k only: %d is refused (DTrace's stack is a typedef of void) */
BEGIN
{
	@c[stack()] = count();
}

END
{
	printa("%d %@d\n", @c);
}
