/*
 * With -C and no -X, DTrace runs cpp in its default 'a' mode (ANSI C with
 * K&R compatibility), where __STDC__ is 0.
 */
BEGIN
{
	trace(__STDC__);
	exit(0);
}
