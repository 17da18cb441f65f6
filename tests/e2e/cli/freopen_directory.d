/*
 * A format whose expansion is "." names that directory: the file cannot be
 * opened, the failure is reported as DTrace's dtrace_freopen() reports it
 * (couldn't freopen()), and output stays where it was.  Only freopen("")
 * itself, whose format the compiler records as ".", restores the output.
 */
#pragma D option quiet

BEGIN
{
	freopen("%s", ".");
	printf("still to standard output\n");
	exit(0);
}
