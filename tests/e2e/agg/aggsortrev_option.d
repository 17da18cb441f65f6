#pragma D option quiet

#pragma D option aggsortrev

BEGIN
{
	@c["b"] = count();
	@c["a"] = count();
	@c["b"] = count();
	exit(0);
}
