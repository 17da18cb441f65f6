#pragma D option quiet

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	trace("a");
	trace(1);
	printf("\n");
}

BEGIN
{
	speculate(s);
	printf("second clause\n");
}

END
{
	commit(s);
}

BEGIN
{
	exit(0);
}
