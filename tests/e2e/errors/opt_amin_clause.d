/*
 * A description naming no provider is Unstable/Unstable/Common: the clause
 * is refused before its actions, at the line where it ends.
 */
BEGIN
{
	trace(1);
}
