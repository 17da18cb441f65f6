BEGIN
{
	trace();
}
