#pragma D option quiet
#pragma D option specsize=64

/* Two speculated printf()s, neither fits in 64 bytes: two drops, one message. */
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
	speculate(s);
	printf("%s\n", "does not fit either");
}

BEGIN
{
	commit(s);
}

BEGIN
{
	printf("committed %d\n", s);
	exit(0);
}
