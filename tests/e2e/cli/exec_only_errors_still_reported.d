BEGIN
{
	trace(nosuchvariable);
}
