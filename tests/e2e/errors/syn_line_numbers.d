/*
 * The error is reported on the line of the bad statement,
 * after comments and blank lines.
 */

BEGIN
{
	a = 1;

	b = "x" + "y";
	c = 2;
}
