/* a stack is a typedef of void: no arithmetic on it */
BEGIN
{
	x = stack() + 1;
}
