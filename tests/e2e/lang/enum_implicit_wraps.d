/*
 * An enumerator without a value is the previous one plus one as an int, as
 * DTrace's dt_decl_enumerator computes it: past INT_MAX it wraps to INT_MIN.
 * Only an explicit value out of int's range is refused
 * (errors/decl_enoflow).
 */
#pragma D option quiet

enum e { A = 2147483646, B, C, D };

BEGIN
{
	printf("%d %d %d %d\n", A, B, C, D);
	exit(0);
}
