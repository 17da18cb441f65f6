typedef int t[int];

BEGIN
{
	trace(sizeof (t));
}
