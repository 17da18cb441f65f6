0
{
	exit(0);
}
