#pragma D option quiet

BEGIN
{
	@c["x"] = count();
	@c["y"] = count();
	@c["y"] = count();
	@s["x"] = sum(10);
	@s["y"] = sum(20);
	@m["x"] = max(3);
	@m["y"] = max(7);
	printa("%s count=%@d sum=%@d max=%@d\n", @c, @s, @m);
	exit(0);
}
