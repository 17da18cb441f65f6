BEGIN
{
	normalize(timestamp, 1000);
}
