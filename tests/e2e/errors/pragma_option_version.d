#pragma D option version=0.9
BEGIN
{
	exit(0);
}
