BEGIN
{
	5--;
}
