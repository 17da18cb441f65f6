/*
 * ustack() of a probe fired in the dtrace process itself (BEGIN, on the
 * thread that called dtrace_go) walks every frame-pointer frame down to
 * main and beyond it into libc.  The .sed keeps only the main frame, its
 * offset removed, and the count of frames ustackdepth gave.
 */
#pragma D option quiet

BEGIN
{
	ustack();
	printf("ustackdepth above 3: %s\n", ustackdepth > 3 ? "yes" : "no");
	exit(0);
}
