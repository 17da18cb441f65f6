BEGIN
{
	x = 1 || "b";
}
