BEGIN
{
	a[1] = 2;
	x = a;
}
