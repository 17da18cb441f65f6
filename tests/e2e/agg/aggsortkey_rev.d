#pragma D option quiet
#pragma D option aggsortkey
#pragma D option aggsortrev

BEGIN
{
	@a[1] = count();
	@a[3] = count();
	@a[2] = count();
	exit(0);
}
