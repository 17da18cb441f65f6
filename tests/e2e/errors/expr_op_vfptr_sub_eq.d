BEGIN
{
	x = 1;
	x -= (int *)0;
}
