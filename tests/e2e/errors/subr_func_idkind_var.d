int total;

BEGIN
{
	total(2);
}
