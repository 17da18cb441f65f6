/* A struct of a loaded object (libct_ctf.so, CTF only; preloaded by
   types.cmake) over alloca'd memory: stores and loads through ->, ., an
   array member, bit-fields, a typedef'd member and an enum member, then
   print() of members by their imported types. */
#pragma D option quiet

BEGIN
{
	this->n = (struct ct_node *)alloca(sizeof(struct ct_node));
	this->n->pos.x = 7;
	this->n->pos.y = -2;
	this->n->arr[3] = 40;
	this->n->color = 6;
	this->n->bits.a = 5;
	this->n->bits.c = -5;
	this->n->bits.d = 99999;
	this->n->big = 0x1122334455667788;
	this->n->name[0] = 'h';
	this->n->name[1] = 'i';
	this->n->name[2] = '\0';
	printf("sizeof %d, offsetof(color) %d\n", sizeof(struct ct_node), offsetof(struct ct_node, color));
	printf("pos %d %d arr[3] %d color %d\n", this->n->pos.x, this->n->pos.y, this->n->arr[3],
	    this->n->color);
	printf("bits a %d c %d d %d\n", this->n->bits.a, this->n->bits.c, this->n->bits.d);
	printf("big %x name %s\n", this->n->big, stringof(this->n->name));
	printf("next element at +%d\n", (uintptr_t)(this->n + 1) - (uintptr_t)this->n);
	print(this->n->pos);
	printf("\n");
	exit(0);
}
