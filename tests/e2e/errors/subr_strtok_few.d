BEGIN
{
	trace(strtok("a,b"));
}
