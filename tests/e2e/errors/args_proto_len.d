BEGIN
{
	trace(args[0, 1]);
}
