BEGIN
{
	trace(1);
}
