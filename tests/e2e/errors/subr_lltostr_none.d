BEGIN
{
	trace(lltostr());
}
