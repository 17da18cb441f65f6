#pragma D option quiet

BEGIN
{
	@s["a"] = sum(1000);
	@s["b"] = sum(2500);
	normalize(@s, 100);
	exit(0);
}
