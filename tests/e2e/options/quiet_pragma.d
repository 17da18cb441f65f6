#pragma D option quiet

BEGIN
{
	trace(1);
	exit(0);
}
