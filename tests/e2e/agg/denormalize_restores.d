#pragma D option quiet

BEGIN
{
	@s = sum(1000);
	normalize(@s, 10);
	printa("normalized %@d\n", @s);
	denormalize(@s);
	printa("denormalized %@d\n", @s);
	exit(0);
}
