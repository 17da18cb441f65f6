/*
 * -x tree=2: each clause as typed ("cooked"), once for each probe
 * description it names, when DTrace's dt_compile_one_clause() has cooked
 * it: variables with their types and flags, an aggregation with its keys
 * and function, a use of an inline as the variable DTrace keeps, the
 * clause's attributes and its probe context's (CTXATTR); a translation is
 * of DTrace's dynamic type <DYN>, an inline array's use is the array with
 * its subscripts.
 */
inline string NAME = execname;
typedef struct in { int a; } in_t;
struct out { int b; };
translator struct out < in_t *p > { b = p->a * 2; };
inline int next[int k] = k + 1;

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
	p = (in_t *)alloca(sizeof (in_t));
	y = xlate<struct out>(p).b + xlate<struct out *>(p)->b + next[x];
}
