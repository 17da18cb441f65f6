#pragma D option quiet

BEGIN
{
	@c[1] = sum(1);
	@c[2] = sum(2);
	exit(0);
}

END
{
	clear(@c);
}
