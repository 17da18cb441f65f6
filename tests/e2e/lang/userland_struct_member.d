/*
 * Members of a struct seen through a userland pointer are read with user
 * loads: -> and . on it, a by-reference member (a char array) given to
 * stringof, and the right value of each width.
 */
struct pair {
	int a;
	short b;
	int *p;
	char name[8];
};

BEGIN
{
	this->m = (struct pair *)alloca(sizeof (struct pair));
	this->m->a = 1234;
	this->m->b = -9;
	this->m->p = &this->m->a;
	this->m->name[0] = 'h';
	this->m->name[1] = 'i';
	this->m->name[2] = 0;
	this->u = (userland struct pair *)this->m;
	printf("%d %d %d\n", this->u->a, this->u->b, (*this->u).a);
	printf("%s\n", stringof(this->u->name));
	exit(0);
}
