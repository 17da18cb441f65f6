/*
 * #pragma D option strsize resizes D's string type from that line on, as
 * DTrace's strsize option resizes the type itself: sizeof (string) follows,
 * a struct declared after the pragma lays its string out at the new size,
 * one declared before it keeps the layout it was given.
 */
#pragma D option quiet

struct before { char tag; string name; int after; };

#pragma D option strsize=16

struct later { char tag; string name; int after; };

BEGIN
{
	printf("%d\n", sizeof (string));
	printf("%d %d\n", offsetof(struct before, after), sizeof (struct before));
	printf("%d %d\n", offsetof(struct later, after), sizeof (struct later));
	exit(0);
}
