#pragma D option quiet
#pragma D option aggsize=64

BEGIN
{
	@[1] = count();
	@[2] = count();
	@[3] = count();
	@[4] = count();
	exit(0);
}
