#pragma D option quiet

BEGIN
{
	@s["x"] = sum(1000);
	exit(0);
}

END
{
	normalize(@s, 10);
}
