/*
 * A type name is checked against -x amin as the parser meets it, before
 * any clause is: -x amin=Stable (Stable/Standard/Common) refuses the type
 * int of the second clause's sizeof, not the first clause.
 */
dtrace:::BEGIN
{
	trace(1);
}

dtrace:::END
{
	trace(sizeof (int));
}
