#pragma D option quiet

BEGIN
{
	@c["x"] = count();
	@c["y"] = count();
	@c["y"] = count();
	@s["x"] = sum(10);
	@s["y"] = sum(20);
	printa(@c, @s);
	exit(0);
}
