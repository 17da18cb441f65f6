/* a key first recorded as a _symaddr takes no integer */
BEGIN
{
	@c[sym(arg0)] = count();
	@c[arg0] = count();
}
