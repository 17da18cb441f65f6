BEGIN
{
	x = "s";
	x >>= 1;
}
