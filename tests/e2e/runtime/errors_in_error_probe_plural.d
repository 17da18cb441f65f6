#pragma D option quiet

/* Two faults, and the ERROR clause faults on each: two double errors. */
BEGIN
{
	trace(*(int *)0);
}

BEGIN
{
	trace(*(int *)16);
}

ERROR
{
	trace(*(int *)8);
}

BEGIN
{
	exit(0);
}
