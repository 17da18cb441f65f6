BEGIN
{
	chill(1000);
}
