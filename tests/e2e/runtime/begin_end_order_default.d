BEGIN
{
	trace("begin");
}

END
{
	trace("end");
}

BEGIN
{
	exit(0);
}
