/* Too late from within a program: DTrace's EDT_BADOPTCTX. */
#pragma D option unsetenv=HOME
BEGIN
{
	exit(0);
}
