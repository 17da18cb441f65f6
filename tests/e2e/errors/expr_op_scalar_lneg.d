BEGIN
{
	x = !"a";
}
