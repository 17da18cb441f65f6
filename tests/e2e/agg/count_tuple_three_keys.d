#pragma D option quiet

BEGIN
{
	@c["read", 3, 1] = count();
	@c["read", 3, 2] = count();
	@c["write", 1, 1] = count();
	@c["read", 3, 1] = count();
	exit(0);
}
