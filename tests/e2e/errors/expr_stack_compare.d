/* two stacks compare as types (both void), but a stack has no value in an expression */
BEGIN
{
	x = stack() == stack();
}
