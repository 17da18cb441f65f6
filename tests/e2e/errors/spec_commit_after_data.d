BEGIN
{
	trace(timestamp);
	commit(1);
}
