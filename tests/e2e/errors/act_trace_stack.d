/* stack() is an action, not a value trace() can record */
BEGIN
{
	trace(stack());
}
