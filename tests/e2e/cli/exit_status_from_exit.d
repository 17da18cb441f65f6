BEGIN
{
	exit(3);
}
