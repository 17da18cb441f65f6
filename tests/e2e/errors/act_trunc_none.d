BEGIN
{
	trunc();
}
