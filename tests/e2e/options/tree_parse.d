/*
 * -x tree=1: the program as parsed, before anything is typed (DTrace's
 * pass 1): a PROGRAM over its inlines, translators and clauses; type and
 * variable declarations leave no node.  Constants are folded as DTrace's
 * parser folds them, an inline of a constant is that constant, a
 * subscript's keys follow it without commas, the string's newline is
 * printed as it is.  A provider is its name, whether it was known, and its
 * probes ("__" in a probe's name is "-").
 */
inline int LIMIT = 10;
inline string NAME = execname;
self int depth;
typedef struct in { int a; } in_t;
struct out { int b; };

provider myprov {
	probe go__now(int, char *);
	probe stop();
};

translator struct out < in_t *p > {
	b = p->a * 2;
};

tick-1s,
BEGIN
/pid != 0 && LIMIT > 3/
{
	self->depth++;
	this->t = (char)300 + 1;
	counts[pid, NAME] = -1;
	@c[probename, 2] = sum(~2);
	x = pid > 5 ? LIMIT : sizeof (struct out);
	printf("%s\n", NAME);
	if (x > 1) {
		trace(x);
	} else
		trace(!x);
}

END
{
	printa(@c);
}
