BEGIN
{
	y = offsetof(int, a);
}
