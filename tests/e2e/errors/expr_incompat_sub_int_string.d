BEGIN
{
	x = 1 - "a";
}
