BEGIN
{
	trace(copyinstr());
}
