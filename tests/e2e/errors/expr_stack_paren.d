/* "stack" names the action: the lexer never reads it as a type, so (stack) is no cast */
BEGIN
{
	this->s = (stack)0;
}
