/*
 * -x amin=Evolving/Evolving/Common: a program of Stable identifiers and a
 * description of the dtrace provider is at least that stable; it runs.
 */
#pragma D option quiet

dtrace:::BEGIN
/pid != 0/
{
	printf("%s %d\n", "stable enough", 42);
	exit(0);
}
