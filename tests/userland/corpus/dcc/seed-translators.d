struct in { int a; char name[8]; struct in *next; };
struct out { int b; string s; };
translator struct out < struct in *p > { b = p->a + 1; s = stringof(p->name); };
BEGIN
{
	this->p = (struct in *)alloca(sizeof (struct in));
	this->p->a = 41;
	trace(xlate<struct out>(this->p).b);
	trace(xlate<struct out *>(this->p)->s);
	print(xlate<struct out>(this->p));
	trace(1 < 2 > (3));
	exit(0);
}
