BEGIN
{
	x = "a" + "b";
}
