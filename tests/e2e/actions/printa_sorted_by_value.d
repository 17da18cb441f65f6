#pragma D option quiet

BEGIN
{
	@s["c"] = sum(1);
	@s["a"] = sum(30);
	@s["b"] = sum(20);
	printa("%s %@d\n", @s);
	exit(0);
}
