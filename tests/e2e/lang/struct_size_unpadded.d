/*
 * A struct or union declared in D is as large as DTrace's libctf makes it:
 * each member at the next offset aligned for it, the size ending with the
 * last member (no padding after it, unlike C), a union as large as its
 * largest member.
 */
#pragma D option quiet

struct s { int a; char b; };
struct t { long x; char c; };
struct p { char c; long l; };
union u { int i; char c[5]; };

BEGIN
{
	printf("%d %d %d %d\n", sizeof (struct s), sizeof (struct t), sizeof (struct p), sizeof (union u));
	printf("%d %d\n", offsetof(struct s, b), offsetof(struct p, l));
	exit(0);
}
