BEGIN
{
	pid > 0 ? exit(0) : exit(1);
}
