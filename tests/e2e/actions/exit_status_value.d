BEGIN
{
	exit(7);
}
