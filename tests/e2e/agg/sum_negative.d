#pragma D option quiet

BEGIN
{
	@s = sum(5);
	@s = sum(-12);
	exit(0);
}
