BEGIN
{
	trace(strjoin("abc"));
}
