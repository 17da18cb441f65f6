/*
 * Struct, union and enum tags are three name spaces (CTF's, as C's): each
 * kind may use the tag s, and a definition completes only a forward
 * declaration of its own kind.  A reference to another enum inside an
 * enum's definition leaves the enumerators to the enum being defined.
 */
#pragma D option quiet

struct s *p;
struct s {
	char a[3];
};
union s {
	short b[5];
};
enum s { A, B };
enum a { X = sizeof (enum b *), Y };
enum a v;

BEGIN
{
	v = Y;
	printf("%d %d %d %d %d\n", sizeof (struct s), sizeof (union s), sizeof (enum s), sizeof (*p), v);
	exit(0);
}
