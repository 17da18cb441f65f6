#pragma D option quiet

BEGIN
{
	@s[1] = sum(10);
	@s[2] = sum(-3);
	@s[3] = sum(5);
	exit(0);
}
