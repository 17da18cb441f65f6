BEGIN
{
	i = 0;
	trace(args[i]);
}
