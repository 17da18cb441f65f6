#pragma D option quiet

BEGIN
{
	trace(*(int *)0);
}

ERROR
{
	trace(*(int *)8);
}

BEGIN
{
	exit(0);
}
