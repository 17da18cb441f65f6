#pragma D option quiet

#pragma D option aggsortkey

BEGIN
{
	@c["b"] = count();
	@c["a"] = count();
	@c["b"] = count();
	@c["c"] = count();
	exit(0);
}
