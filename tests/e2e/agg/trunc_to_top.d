#pragma D option quiet

BEGIN
{
	@c["a"] = sum(1);
	@c["b"] = sum(5);
	@c["c"] = sum(3);
	@c["d"] = sum(4);
	trunc(@c, 2);
	exit(0);
}
