/*
 * DTrace's type containers are modules named D and C: D`name is a type of
 * the D container (what the program declares, D's typedefs and string, and,
 * through its parent C, the C intrinsics); C`name one of C (the intrinsics).
 */
#pragma D option quiet

struct rec {
	unsigned int h;
	unsigned int l;
	char *name;
};
typedef struct rec rec_t;

BEGIN
{
	src = (struct rec *)alloca(sizeof (struct rec));
	src->h = 11;
	src->l = 22;
	src->name = "abc";
	s = (struct D`rec *)alloca(sizeof (struct D`rec));
	bcopy(src, s, sizeof (struct D`rec));
	t = (D`rec_t *)alloca(sizeof (D`rec_t));
	bcopy(src, t, sizeof (D`rec_t));
	printf("%d %d %s\n", s->h, s->l, stringof(s->name));
	printf("%d %d %s\n", t->h, t->l, stringof(t->name));
	printf("%d %d %d %d %d\n", sizeof (D`int), sizeof (C`long), sizeof (D`uint16_t),
	    sizeof (D`string), (D`char)0x141);
	exit(0);
}
