BEGIN
{
	discard(1, 2);
}
