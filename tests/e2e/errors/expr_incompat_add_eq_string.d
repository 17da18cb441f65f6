BEGIN
{
	x = "a";
	x += "b";
}
