/* Too late from within a program: DTrace's EDT_BADOPTCTX. */
#pragma D option ldpath=/usr/bin/ld
BEGIN
{
	exit(0);
}
