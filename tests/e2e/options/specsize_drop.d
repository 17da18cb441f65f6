#pragma D option quiet
#pragma D option specsize=64

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("%s\n", "does not fit in 64 bytes");
}

BEGIN
{
	commit(s);
}

BEGIN
{
	printf("committed\n");
	exit(0);
}
