BEGIN
{
	y = (int)"abc";
}
