BEGIN
{
	x = "a" / 2;
}
