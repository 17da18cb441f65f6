BEGIN
{
	ustack(10, -5);
}
