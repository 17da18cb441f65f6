BEGIN
{
	x = "abc;
}
