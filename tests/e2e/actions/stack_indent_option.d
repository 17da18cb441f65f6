#pragma D option quiet
#pragma D option stackindent=4

BEGIN
{
	stack(1);
	exit(0);
}
