#pragma D option quiet

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("speculative %d\n", 1);
}

BEGIN
{
	printf("not speculative\n");
}

BEGIN
{
	commit(s);
}

BEGIN
{
	exit(0);
}
