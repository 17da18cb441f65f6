/*
 * -x amin: every node less stable than the minimum is an error, named as
 * DTrace names it.  The clause (dtrace:::BEGIN, Stable/Stable/Common) and
 * pid pass; curthread's data is Private.
 */
dtrace:::BEGIN
/pid != 0/
{
	trace(curthread);
}
