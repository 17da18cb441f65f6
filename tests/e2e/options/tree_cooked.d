/*
 * -x tree=2: each clause as typed ("cooked"), once for each probe
 * description it names, when DTrace's dt_compile_one_clause() has cooked
 * it: variables with their types and flags, an aggregation with its keys
 * and function, a use of an inline as the variable DTrace keeps, the
 * clause's attributes and its probe context's (CTXATTR).
 */
inline string NAME = execname;

BEGIN,
END
/pid != 0/
{
	self->depth++;
	this->t = timestamp;
	counts[pid, NAME] = (long)this->t;
	@c[probename] = count();
	x = pid > 5 ? 1 : -1;
	s = stringof(NAME);
	trace(x);
}
