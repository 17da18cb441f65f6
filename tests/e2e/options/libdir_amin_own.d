/*
 * A D library's #pragma D option amin is its own: the program, whose
 * statements are Stable/Stable/Common, still compiles and runs.
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("%d\n", 7);
	exit(0);
}
