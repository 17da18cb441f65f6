BEGIN
{
	x = count;
}
