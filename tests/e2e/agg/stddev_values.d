#pragma D option quiet

BEGIN
{
	@sd = stddev(2);
	@sd = stddev(4);
	@sd = stddev(9);
	exit(0);
}
