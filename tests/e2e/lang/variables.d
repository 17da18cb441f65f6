/* Scalar globals, self-> thread-locals, this-> clause-locals, associative
   arrays with tuple keys, declarations with types, implicit types, strings
   bounded by strsize, and self->x = 0 freeing a thread-local. */
#pragma D option quiet
#pragma D option strsize=16

int g;
self int t;
string s;
this char c;

BEGIN
{
	g = 41;
	g++;
	self->t = 7;
	self->u = "thread";
	this->l = g + self->t;
	this->c = 'A' + 2;
	a["k", 1] = 10;
	a["k", 2] = 20;
	a["j", 1] = a["k", 1] + a["k", 2];
	s = "abcdefghijklmnopqrstuvwxyz";
	printf("%d %d %s %d %c\n", g, self->t, self->u, this->l, this->c);
	printf("%d %d %d %d\n", a["k", 1], a["k", 2], a["j", 1], a["zz", 9]);
	printf("%s %d\n", s, strlen(s));
	self->t = 0;
	self->u = 0;
	printf("%d\n", self->t);
	imp = 1;
	imps = "str";
	printf("%d %d\n", sizeof (imp), sizeof (imps));
}

BEGIN
{
	/* a clause-local starts over in each clause; globals do not */
	printf("%d %d\n", g, a["j", 1]);
	exit(0);
}
