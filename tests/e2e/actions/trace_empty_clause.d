BEGIN
{
}

BEGIN
{
	exit(0);
}
