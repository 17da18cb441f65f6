BEGIN
{
	x = 1;
	(x + 1) += 2;
}
