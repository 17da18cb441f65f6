BEGIN
{
	trace(curthread[0, 1]);
}
