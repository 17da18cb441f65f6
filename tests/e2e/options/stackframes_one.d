#pragma D option stackframes=1

BEGIN
{
	stack();
	exit(0);
}
