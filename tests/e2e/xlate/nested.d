/* Translators may use other translators (a member of translated data), and
   a translated member may be a string, a pointer, a value from a subroutine.
   A struct member cannot take translated data itself: errors/xlate_member_sou. */
#pragma D option quiet

struct raw { int hi; int lo; char tag[4]; };
struct half { int v; };
struct cooked { long both; string tag; int hv; int *where; };

translator struct half < int x > {
	v = x * 2;
};

translator struct cooked < struct raw *r > {
	both = ((long)r->hi << 32) | r->lo;
	tag = r->tag;
	hv = xlate<struct half>(r->lo).v;
	where = &r->lo;
};

BEGIN
{
	this->r = (struct raw *)alloca(sizeof(struct raw));
	this->r->hi = 1;
	this->r->lo = 2;
	this->r->tag[0] = 'o';
	this->r->tag[1] = 'k';
	printf("%x %s %d %d\n", xlate<struct cooked *>(this->r)->both,
	    xlate<struct cooked *>(this->r)->tag, xlate<struct cooked *>(this->r)->hv,
	    xlate<struct cooked *>(this->r)->where == &this->r->lo);
	exit(0);
}
