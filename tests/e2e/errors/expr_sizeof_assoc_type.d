BEGIN
{
	trace(sizeof (int [string, int]));
}
