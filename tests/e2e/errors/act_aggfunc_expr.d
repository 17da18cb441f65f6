BEGIN
{
	trace(sum(1));
}
