#pragma D option quiet

BEGIN
{
	@c[1] = sum(1);
	@c[2] = sum(2);
	@c[3] = sum(3);
	@c[4] = sum(4);
	exit(0);
}

END
{
	trunc(@c, 2);
}
