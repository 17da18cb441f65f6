BEGIN
{
	exit(0, 1);
}
