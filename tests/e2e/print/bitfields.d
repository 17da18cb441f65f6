/* print() of bit-fields: the width after the name when the field is not a
   whole, aligned integer of its type's size, the value masked, in hex;
   stores into bit-fields leave their neighbours alone. */
#pragma D option quiet

struct flags {
	unsigned int ready:1;
	unsigned int mode:3;
	unsigned int count:12;
	int neg:4;
	unsigned int rest:12;
	unsigned char whole:8;
	unsigned short half:16;
	char letter;
};

BEGIN
{
	this->f = (struct flags *)alloca(sizeof(struct flags));
	this->f->rest = 0xfff;
	this->f->ready = 1;
	this->f->mode = 9;
	this->f->count = 0xabc;
	this->f->neg = -1;
	this->f->count++;
	this->f->whole = 0x7f;
	this->f->half = 0x1234;
	this->f->letter = 'L';
	print(*this->f);
	printf("\n");
	printf("%d %d %d %d %d\n", this->f->ready, this->f->mode, this->f->count, this->f->neg,
	    this->f->rest);
	exit(0);
}
