BEGIN
{
	trace("hello");
	trace("world");
	exit(0);
}
