BEGIN
{
	trace(strdup("hello"));
}
