BEGIN
{
	trace($parent);
	exit(0);
}
