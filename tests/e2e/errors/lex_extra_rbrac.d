BEGIN
{
	x = 1];
}
