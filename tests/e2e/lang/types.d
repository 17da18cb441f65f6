/* Casts, sizeof, offsetof, stringof, typedefs, structs, unions, enums,
   bit-fields, function-pointer declarations, pointer arithmetic, -> and .,
   indexing. */
#pragma D option quiet

typedef struct pt {
	int x;
	int y;
} pt_t;

struct pad {
	char c;
	long l;
};

union u {
	int i;
	char c[4];
};

enum color { RED, GREEN = 5, BLUE };

struct bits {
	unsigned int a : 3;
	int b : 5;
	unsigned int c : 8;
};

typedef int (*fn_t)(int, char *);

unsigned char uc;
long sl;
unsigned int ui;

BEGIN
{
	x = 0x1ff;
	y = 0x18000;
	printf("%d %d %d %d %d\n", (char)x == -1, (unsigned char)x == 255, (short)y == -32768,
	    (unsigned short)y == 32768, (long)(int)0xffffffff == -1);
	printf("%d %d %d %d %d %d\n", sizeof (pt_t), sizeof (union u), sizeof (enum color),
	    sizeof (struct bits), sizeof (char *), sizeof (fn_t));
	printf("%d %d %d\n", offsetof(pt_t, y), offsetof(struct pad, l), sizeof (struct pad));
	printf("%d %d %d %d\n", RED, GREEN, BLUE, (enum color)6 == BLUE);
	this->p = (pt_t *)alloca(sizeof (pt_t) * 2);
	this->p->x = 1;
	this->p->y = 2;
	this->p[1].x = 3;
	this->p[1].y = 4;
	printf("%d %d %d %d %d\n", this->p->x, (*this->p).y, this->p[1].x, (this->p + 1)->y,
	    (this->p + 1) - this->p);
	printf("%d\n", (char *)(this->p + 1) - (char *)this->p);
	this->b = (struct bits *)alloca(sizeof (struct bits));
	this->b->a = 5;
	this->b->b = -3;
	this->b->c = 200;
	this->b->a++;
	printf("%d %d %d\n", this->b->a, this->b->b, this->b->c);
	this->u = (union u *)alloca(sizeof (union u));
	this->u->i = 0x41424344;
	printf("%c %d %s\n", this->u->c[0], this->u->c[3], stringof("str"));
	/* comparisons after C's conversions: narrow types become int, a wider
	   signed type keeps its sign against a narrower unsigned one */
	uc = 200;
	sl = -1;
	ui = 1;
	printf("%d %d %d %d\n", uc > -1, sl < ui, (unsigned long)sl > ui, ui > -1);
	exit(0);
}
