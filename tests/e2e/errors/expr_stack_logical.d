/* a stack is not a scalar */
BEGIN
{
	x = stack() && 1;
}
