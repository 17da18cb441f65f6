int f(int);

BEGIN
{
	trace(f);
}
