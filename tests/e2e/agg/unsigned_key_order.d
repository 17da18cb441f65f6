#pragma D option quiet

#pragma D option aggsortkey

BEGIN
{
	@s[-1] = sum(1);
	@s[1] = sum(1);
	exit(0);
}
