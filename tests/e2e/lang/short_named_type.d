/*
 * DTrace's declaration checks refuse signed, unsigned and long before a
 * struct, union, enum or typedef name, but let short by: the type is the
 * named one alone.
 */
#pragma D option quiet

typedef long counter_t;
struct pt { int x; int y; };

short counter_t hits;
short struct pt where;

BEGIN
{
	hits = 0x100000000;
	where.y = 7;
	printf("%d %d %d %d\n", sizeof (hits), sizeof (where), sizeof (short string) == sizeof (string), where.y);
	printf("%d\n", hits == 0x100000000);
	exit(0);
}
