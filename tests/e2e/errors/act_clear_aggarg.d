BEGIN
{
	clear(pid);
}
