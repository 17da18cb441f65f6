BEGIN
{
	ustack(-1);
}
