/* #pragma D option tree=0: dtrace_setopt() refuses the value, a compile error. */
#pragma D option tree=0
BEGIN
{
	exit(0);
}
