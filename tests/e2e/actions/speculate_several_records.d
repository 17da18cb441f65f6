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

/*
 * Committed in BEGIN, on the CPU that speculated: a commit() in END commits
 * only END's CPU's buffer at once (the others wait for the cleaner, which
 * stops with tracing, as in DTrace), and END may fire on another CPU.
 */
BEGIN
{
	commit(s);
}

BEGIN
{
	exit(0);
}
