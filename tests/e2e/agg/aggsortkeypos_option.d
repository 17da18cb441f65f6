#pragma D option quiet
#pragma D option aggsortkey
#pragma D option aggsortkeypos=1

BEGIN
{
	@a["b", 2] = count();
	@a["a", 3] = count();
	@a["c", 1] = count();
	exit(0);
}
