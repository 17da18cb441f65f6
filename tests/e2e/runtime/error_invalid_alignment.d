#pragma D option quiet

BEGIN
{
	trace(*(int *)1);
}

BEGIN
{
	exit(0);
}
