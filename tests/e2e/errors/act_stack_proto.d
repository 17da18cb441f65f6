BEGIN
{
	stack(5, 10);
}
