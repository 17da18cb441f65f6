/* Too late from within a program: DTrace's EDT_BADOPTCTX. */
#pragma D option setenv=A=1
BEGIN
{
	exit(0);
}
