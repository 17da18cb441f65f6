/* a stack is neither an integer nor a pointer: not even 0 compares with it */
BEGIN
{
	x = stack() == 0;
}
