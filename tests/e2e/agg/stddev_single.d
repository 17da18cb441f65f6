#pragma D option quiet

BEGIN
{
	@sd = stddev(100);
	exit(0);
}
