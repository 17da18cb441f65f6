/* -x stdc=c: strict ISO C conformance, __STDC__ is 1. */
BEGIN
{
	trace(__STDC__);
	exit(0);
}
