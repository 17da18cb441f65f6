BEGIN
{
	trace("quiet");
	exit(0);
}
