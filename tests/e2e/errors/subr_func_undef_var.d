BEGIN
{
	total = 1;
	total(2);
}
