/*
 * -S lists the DIFOs assembled before an error: the first clause's, then
 * the second clause needs an eighth register for its innermost operand.
 */
BEGIN
{
	trace(1);
}

BEGIN
{
	trace(arg0 + (arg1 + (arg2 + (arg3 + (arg4 + (arg5 + (arg6 + arg7)))))));
}
