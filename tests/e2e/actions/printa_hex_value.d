#pragma D option quiet

BEGIN
{
	@c["a"] = sum(255);
	printa("%s %@x %@X %@o\n", @c);
	exit(0);
}
