BEGIN
{
	pid++;
}
