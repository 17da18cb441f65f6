#pragma D option quiet

BEGIN
{
	@c["a"] = sum(1);
	trunc(@c);
	@d = count();
	exit(0);
}
