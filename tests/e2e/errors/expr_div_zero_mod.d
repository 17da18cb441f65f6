BEGIN
{
	y = 7;
	x = y % 0;
}
