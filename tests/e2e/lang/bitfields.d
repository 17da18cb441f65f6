/* Bit-fields of a D struct read and written as DTrace does: a field's own
   bytes (a D struct gives each field bytes of its own, aligned to its width
   rounded up to 1, 2, 4 or 8 bytes), signed fields sign-extended from their
   top bit, stores masked to the width and leaving the other bits of those
   bytes alone; through -> on alloca'd memory (this-> and self-> pointers)
   and through . on clause-local and global struct variables.  A field's
   value is as wide as its bytes (a signed 5-bit field is a one-byte value,
   which %d prints signed, as DTrace's %i); (int) makes it an int. */
#pragma D option quiet

struct bf {
	unsigned int a : 3;
	int b : 5;
	unsigned int c : 12;
	long d : 40;
	unsigned short w : 16;
	int e : 31;
};

this struct bf s;
struct bf g;

BEGIN
{
	this->p = (struct bf *)alloca(sizeof (struct bf));
	this->p->a = 0xff;
	this->p->b = -1;
	this->p->c = -1;
	this->p->d = -1;
	this->p->w = -1;
	this->p->e = -1;
	printf("ones %d %d %d %d %d %d\n", this->p->a, (int)this->p->b, this->p->c, this->p->d,
	    this->p->w, (int)this->p->e);
	this->p->b = -3;
	this->p->c = 0x1234;
	this->p->d = -5;
	this->p->e = 0x40000000;
	printf("set %d %d %d %d %d %d\n", this->p->a, (int)this->p->b, this->p->c, this->p->d,
	    this->p->w, (int)this->p->e);
	printf("b as a byte %d, as an int %d\n", this->p->b, this->p->b + 0);
	this->q = (unsigned char *)this->p;
	this->q[1] = 0xff;
	this->p->b = 2;
	printf("b's byte %x, b %d\n", this->q[1], (int)this->p->b);
	this->s.c = 100;
	this->s.b = -7;
	this->s.c += 5;
	this->s.b--;
	printf("this %d %d\n", this->s.c, (int)this->s.b);
	self->p = (struct bf *)alloca(sizeof (struct bf));
	self->p->a = 5;
	self->p->a++;
	self->p->w = 0x1234;
	printf("self %d %d\n", self->p->a, self->p->w);
	g.e = -2;
	g.d = 0x7fffffffff;
	g.d++;
	printf("global %d %d\n", (int)g.e, g.d);
	exit(0);
}
