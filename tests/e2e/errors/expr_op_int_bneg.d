BEGIN
{
	x = ~"a";
}
