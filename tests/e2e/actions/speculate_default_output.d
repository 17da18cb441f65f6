BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	trace(42);
}

BEGIN
{
	commit(s);
}

BEGIN
{
	exit(0);
}
