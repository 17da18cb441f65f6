struct a { int x; };
struct b { int x; };
struct a va;

BEGIN
{
	va = *(struct b *)alloca(sizeof (struct b));
}
