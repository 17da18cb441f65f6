BEGIN
{
	x = nosuch;
}
