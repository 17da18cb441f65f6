BEGIN
{
	speculate(1);
	chill(100);
}
