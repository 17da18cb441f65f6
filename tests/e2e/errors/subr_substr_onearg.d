BEGIN
{
	trace(substr("hello"));
}
