BEGIN
{
	x = "a" ? 1 : 2;
}
