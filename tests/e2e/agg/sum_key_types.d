#pragma D option quiet

BEGIN
{
	@s[(char)1, (short)2, 3, (long long)4] = sum(10);
	exit(0);
}
