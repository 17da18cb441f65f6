BEGIN
{
	x = "a";
	x++;
}
