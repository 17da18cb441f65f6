/*
 * sizeof a string constant counts its characters and the terminating NUL,
 * as DTrace folds it; a string-typed expression or variable is strsize.
 */
#pragma D option quiet
#pragma D option strsize=64

inline string greeting = "hello";

BEGIN
{
	s = "hello";
	printf("%d %d %d\n", sizeof ("hello"), sizeof "", sizeof ("tab\there"));
	printf("%d %d %d\n", sizeof (s), sizeof (greeting), sizeof (stringof("hello")));
	exit(0);
}
