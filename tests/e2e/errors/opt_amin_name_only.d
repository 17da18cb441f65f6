/*
 * -x amin=Stable is Stable/Standard/Common (dtrace_str2attr: the parts left
 * out are the greatest), above the Stable data of everything: the clause of
 * dtrace:::BEGIN is refused first.  -n names the region, not the line.
 */
