/* -x droptags on the command line: principal buffer drops are tagged too. */
#pragma D option quiet
#pragma D option bufsize=1k

/*
 * Each of the first two clauses needs 12 + 3 * 256 bytes: the first fits in
 * the 1k buffer, the second does not and is dropped; the third still fits.
 */
BEGIN
{
	printf("%s %s %s\n", "one", "two", "three");
}

BEGIN
{
	printf("%s %s %s\n", "four", "five", "six");
}

BEGIN
{
	exit(0);
}
