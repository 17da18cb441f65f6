#pragma D option quiet

BEGIN
{
	@a["c"] = count();
	@a["a"] = count();
	@a["b"] = count();
	exit(0);
}
