tick-1s
{
	stddev(timestamp);
	exit(0);
}
