#pragma D option quiet
#pragma D option aggsortpos=1

BEGIN
{
	@a["x"] = count();
	@a["y"] = count();
	@a["y"] = count();
	@a["z"] = count();
	@b["x"] = sum(30);
	@b["y"] = sum(10);
	@b["z"] = sum(20);
	printa("%s %@d %@d\n", @a, @b);
	exit(0);
}
