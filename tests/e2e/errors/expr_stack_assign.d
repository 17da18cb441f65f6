/* a new variable takes the stack type, but stack() has no value outside an action */
BEGIN
{
	x = stack();
}
