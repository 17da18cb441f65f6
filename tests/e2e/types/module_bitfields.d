/* Bit-fields of a loaded object's struct (types.c's struct ct_bits, packed
   by the C compiler: a:3 b:5 share byte 0, c:7 is byte 1, d:20 the word at
   byte 4, e:4 and f:9 the short at byte 16, f crossing into byte 17), read
   and written as DTrace does: the field's bytes only, shifted and masked;
   a store keeps the neighbours' bits; a signed field's value is as wide as
   those bytes, and %d prints it signed (DTrace's %i).  CTF types through
   -> on alloca'd memory, DWARF 5 types through . on a global struct. */
#pragma D option quiet

struct libct_dwarf5.so`ct_bits g;

BEGIN
{
	this->p = (struct libct_ctf.so`ct_bits *)alloca(sizeof (struct libct_ctf.so`ct_bits));
	this->p->a = -1;
	this->p->b = -1;
	this->p->c = -1;
	this->p->d = -1;
	this->p->e = -1;
	this->p->f = -1;
	printf("ones %d %d %d %d %d %d\n", this->p->a, this->p->b, (int)this->p->c, this->p->d,
	    this->p->e, (int)this->p->f);
	this->p->b = 0;
	this->p->f = -100;
	this->p->c = 0x40;
	printf("set %d %d %d %d %d %d\n", this->p->a, this->p->b, (int)this->p->c, this->p->d,
	    this->p->e, (int)this->p->f);
	printf("c as a byte %d, f as a short %d\n", this->p->c, this->p->f);
	this->p->b = 21;
	this->p->d = 0x123456;
	this->q = (unsigned char *)this->p;
	printf("bytes %x %x, d %x\n", this->q[0], this->q[16], this->p->d);
	g.f = -3;
	g.e = 5;
	g.b = 9;
	g.f++;
	printf("global %d %d %d %d\n", (int)g.f, g.e, g.b, g.a);
	exit(0);
}
