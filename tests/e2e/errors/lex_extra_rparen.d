BEGIN
{
	x = (1));
}
