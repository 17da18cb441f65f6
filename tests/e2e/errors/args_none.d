inline int first = args[0];

BEGIN
{
	trace(first);
}
