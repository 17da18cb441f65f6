BEGIN
{
	x = 'a;
}
