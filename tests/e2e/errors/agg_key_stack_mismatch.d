/* a key first recorded as a stack must stay a stack */
BEGIN
{
	@c[stack()] = count();
	@c[1] = count();
}
