/* Too late from within a program: DTrace's EDT_BADOPTCTX. */
#pragma D option stdc=c
BEGIN
{
	exit(0);
}
