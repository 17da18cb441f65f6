BEGIN
{
	x = 'abcdefghi';
}
