BEGIN
{
	trace(strjoin("pid=", pid));
}
