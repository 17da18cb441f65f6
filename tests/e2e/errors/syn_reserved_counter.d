BEGIN
{
	exit(0);
}

counter
{
	exit(1);
}
