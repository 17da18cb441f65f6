/* A member the translator does not define cannot be translated. */
struct in_s { int a; };
struct out_s { int x; int y; };

translator struct out_s < struct in_s *p > {
	x = p->a;
};

BEGIN
{
	trace(xlate<struct out_s *>((struct in_s *)0)->y);
}
