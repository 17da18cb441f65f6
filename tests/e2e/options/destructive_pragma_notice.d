#pragma D option destructive

BEGIN
{
	exit(0);
}
