BEGIN
{
	stack();
	exit(0);
}
