BEGIN
{
	trace(1);
}

BEGIN
{
	trace(2);
}

BEGIN
{
	exit(0);
}
