BEGIN
{
	3 = 4;
}
