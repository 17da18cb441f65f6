/*
 * A declaration with a storage class and no type names an int, as in
 * DTrace: a typedef, a thread-local and a clause-local variable.
 */
#pragma D option quiet

typedef word;
self level;
this tmp;

BEGIN
{
	self->level = -7;
	this->tmp = 0x7fffffff;
	this->tmp++;
	printf("%d %d %d\n", sizeof (word), self->level, this->tmp);
	exit(0);
}
