/* -x stdc=t: transition mode, __STDC__ is 0 as in the default mode. */
BEGIN
{
	trace(__STDC__);
	exit(0);
}
