#pragma D option quiet

BEGIN
{
	@lo = min(-5);
	@lo = min(3);
	@hi = max(-5);
	@hi = max(-9);
	exit(0);
}
