/*
 * A pointer member of a userland struct is itself a userland pointer,
 * and is named so; an int member is just int (its load is a user load).
 */
struct pair {
	int a;
	int *p;
};

BEGIN
{
	this->u = (userland struct pair *)alloca(sizeof (struct pair));
	this->u->a = 1;
	this->u->p = "x";
}
