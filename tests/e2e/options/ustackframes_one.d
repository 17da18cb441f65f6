#pragma D option ustackframes=1

BEGIN
{
	ustack();
	exit(0);
}
