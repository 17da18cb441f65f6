BEGIN
{
	trace(*(int *)0);
}

BEGIN
{
	exit(0);
}
