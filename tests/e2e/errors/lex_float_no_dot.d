BEGIN
{
	big = 25e2;
	small = 3f;
}
