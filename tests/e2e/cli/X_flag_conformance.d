/* -X c gives cpp strict ISO C conformance: __STDC__ is 1 (0 without -X). */
BEGIN
{
	trace(__STDC__);
	exit(0);
}
