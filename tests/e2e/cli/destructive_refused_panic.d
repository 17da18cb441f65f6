BEGIN
{
	panic();
}
