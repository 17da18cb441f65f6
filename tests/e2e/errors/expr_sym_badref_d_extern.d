int f(int);
BEGIN
{
	trace(D`f);
}
