BEGIN
{
	x = printf;
}
