BEGIN
{
	x = strlen;
}
