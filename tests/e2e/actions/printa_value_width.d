#pragma D option quiet

BEGIN
{
	@c["key"] = sum(42);
	printa("[%-6s][%@8d][%@-8d]\n", @c);
	exit(0);
}
