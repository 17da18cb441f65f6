BEGIN
{
	x = 1 +;
}
