BEGIN
{
	x = 0128;
}
