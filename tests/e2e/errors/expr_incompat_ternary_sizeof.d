BEGIN
{
	x = sizeof(int) ? "a" : 1;
}
