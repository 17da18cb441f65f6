BEGIN
{
	x = timestamp / (2 - 2);
}
