#pragma D option quiet

BEGIN
{
	@[execname, 5] = sum(2);
	printa("[%-10s|%5d|%@4d]\n", @);
	exit(0);
}
