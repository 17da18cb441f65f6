#pragma D option quiet

BEGIN
{
	@c["a"] = sum(1);
	@c["b"] = sum(5);
	@c["c"] = sum(3);
	trunc(@c, -1);
	exit(0);
}
