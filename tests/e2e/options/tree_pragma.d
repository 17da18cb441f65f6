/*
 * #pragma D option tree=8 sets -x tree for the rest of the compilation, as
 * DTrace's dtrace_setopt() does: the clause is printed back as D (pass 4)
 * with every operation parenthesized, constants in hexadecimal (u when
 * unsigned), strings escaped.
 */
#pragma D option tree=8

tick-1s,
BEGIN
{
	x = 1;
	a["k", 1] = sizeof (int) + (x ? 2u : -3);
	s = strjoin("a\\b", "\001");
	y = (int)x;
	exit(0);
}
