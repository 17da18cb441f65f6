static int f(int);

BEGIN
{
	trace(f(1));
}
