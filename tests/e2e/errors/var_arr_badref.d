int table[4];

BEGIN
{
	table[1, 2] = 3;
}
