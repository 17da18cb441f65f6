#pragma D option quiet

BEGIN
{
	@z = count();
	@a = sum(3);
	@m = max(9);
	exit(0);
}
