BEGIN
{
	trace($$nosuch);
	exit(0);
}
