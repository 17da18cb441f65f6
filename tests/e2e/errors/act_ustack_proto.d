BEGIN
{
	ustack(10, 100, 1);
}
