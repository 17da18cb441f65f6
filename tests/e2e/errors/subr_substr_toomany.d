BEGIN
{
	trace(substr("hello", 1, 2, 3));
}
