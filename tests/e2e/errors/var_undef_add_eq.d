BEGIN
{
	total += 1;
}
