/*
 * An int member of a userland struct is named "int", not "userland int":
 * only pointer and by-reference members keep the userland mark.
 */
struct pair {
	int a;
	int *p;
};

BEGIN
{
	this->u = (userland struct pair *)alloca(sizeof (struct pair));
	this->u->a = "x";
}
