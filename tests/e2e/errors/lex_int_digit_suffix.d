BEGIN
{

	x = 09u;
}
