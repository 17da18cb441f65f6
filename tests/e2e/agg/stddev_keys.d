#pragma D option quiet

BEGIN
{
	@sd["a"] = stddev(2);
	@sd["a"] = stddev(4);
	@sd["a"] = stddev(4);
	@sd["a"] = stddev(4);
	@sd["a"] = stddev(5);
	@sd["a"] = stddev(5);
	@sd["a"] = stddev(7);
	@sd["a"] = stddev(9);
	@sd["b"] = stddev(10);
	@sd["b"] = stddev(30);
	exit(0);
}
