BEGIN
{
	trace(rand(10));
}
