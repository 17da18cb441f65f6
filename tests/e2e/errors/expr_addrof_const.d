BEGIN
{
	y = &1;
}
