BEGIN
{
	trace(pid, tid);
}
