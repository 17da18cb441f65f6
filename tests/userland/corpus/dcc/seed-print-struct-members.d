/* print() of a struct: one "type name = value" line per member, nested
   structs and unions indented four columns a level, integers in hex,
   chars quoted, enums by name, strings in brackets inside a struct. */
#pragma D option quiet

enum color { RED, GREEN = 5, BLUE };
typedef struct point { int x; int y; } point_t;
struct inner { short s; char c; };
union u { int i; char b[4]; };
struct outer {
	int a;
	char name[8];
	enum color col;
	point_t pt;
	struct inner in;
	union u un;
	char *p;
	long l;
	uint8_t byte;
	char ch;
	unsigned char uch;
	string str;
};

BEGIN
{
	this->o = (struct outer *)alloca(sizeof(struct outer));
	this->o->a = -2;
	this->o->name[0] = 'h';
	this->o->name[1] = 'i';
	this->o->col = GREEN;
	this->o->pt.x = 3;
	this->o->pt.y = 4;
	this->o->in.s = 7;
	this->o->in.c = 'z';
	this->o->un.i = 0x41424344;
	this->o->l = 1234567890123;
	this->o->byte = 200;
	this->o->ch = '\n';
	this->o->uch = 'q';
	this->o->str = "text";
	print(*this->o);
	printf("\n");
	print(this->o->in);
	printf("\n");
	exit(0);
}
