#pragma D option quiet

BEGIN
{
	@c["a", 2] = count();
	@c["a", 1] = count();
	@c["a", 1] = count();
	exit(0);
}
