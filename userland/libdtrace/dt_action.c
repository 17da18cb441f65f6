/*
 * dt_action.c: clauses to ECB descriptions, statements to actions.
 *
 * For each clause and each of its probe descriptions the compiler matches
 * the description (through dt_cops_t), types the clause in the context of
 * the first matching probe (args[]), compiles the predicate, then turns
 * each statement into DTrace's actions with DTrace's record conventions
 * (see dt_compile.h): trace() and plain expressions are DIFEXPR, printf-like
 * actions carry their format, aggregations are an id record, key records,
 * an optional increment record and the DTRACEAGG_* action.
 */
#include <stdlib.h>
#include <string.h>

#include "dt_cg.h"
#include "dt_grammar.h"

typedef struct dt_actlist {
	struct dt_stmt_act *a;
	int n, cap;
	int stmt;
	dt_pcb_t *pcb;
	/* speculation state for DTrace's ordering rules */
	bool spec, commit, data, agg;
} dt_actlist_t;

static struct dt_stmt_act *
dt_act_add(dt_actlist_t *al, uint16_t kind, dt_difo_t *dp)
{
	if (al->n == al->cap) {
		/* arena memory: a compile error anywhere frees it with the rest */
		int n = al->cap ? al->cap * 2 : 8;
		struct dt_stmt_act *p = dt_zalloc(al->pcb, (size_t)n * sizeof(*p));
		if (al->n > 0)
			memcpy(p, al->a, (size_t)al->n * sizeof(*p));
		al->a = p;
		al->cap = n;
	}
	struct dt_stmt_act *a = &al->a[al->n++];
	memset(a, 0, sizeof(*a));
	a->kind = kind;
	a->difo = dp;
	a->agg = -1;
	a->stmt = al->stmt;
	return a;
}

static dt_difo_t *
dt_expr_difo(dt_pcb_t *pcb, dt_node_t *n, const char *what)
{
	dt_difo_t *dp = dt_difo_new(pcb);
	dp->what = what;
	dt_cg_expr_difo(dp, n);
	return dp;
}

/* ---- printf format checking ----------------------------------------------- */

/*
 * DTrace's printf conversions (dt_printf.c's dictionary): the name with its
 * size prefixes, the prototype named in errors and how an argument is
 * checked against it.
 */
typedef enum {
	PF_ADDR, PF_KADDR, PF_UADDR, PF_CSI, PF_INT, PF_FP, PF_STR, PF_WSTR, PF_STACK, PF_TIME,
	PF_TYPE, PF_XSHORT, PF_XLONG, PF_XLLONG, PF_PCT
} dt_pfcheck_t;

static const struct dt_pfconv {
	const char *name, *proto;
	dt_pfcheck_t check;
	int size, sign; /* PF_TYPE: the integer type's size and signedness (size 16: long double) */
} dt_pfconvs[] = {
	{"a", "pointer or integer", PF_KADDR, 0, 0},
	{"A", "pointer or integer (with -p/-c) or _usymaddr (without -p/-c)", PF_UADDR, 0, 0},
	{"c", "char, short, or int", PF_CSI, 0, 0},
	{"C", "char, short, or int", PF_CSI, 0, 0},
	{"d", "char, short, int, long, or long long", PF_INT, 0, 0},
	{"e", "float, double, or long double", PF_FP, 0, 0},
	{"E", "float, double, or long double", PF_FP, 0, 0},
	{"f", "float, double, or long double", PF_FP, 0, 0},
	{"g", "float, double, or long double", PF_FP, 0, 0},
	{"G", "float, double, or long double", PF_FP, 0, 0},
	{"hd", "short", PF_TYPE, 2, 1},
	{"hi", "short", PF_TYPE, 2, 1},
	{"ho", "unsigned short", PF_TYPE, 2, 0},
	{"hu", "unsigned short", PF_TYPE, 2, 0},
	{"hx", "short", PF_XSHORT, 0, 0},
	{"hX", "short", PF_XSHORT, 0, 0},
	{"i", "char, short, int, long, or long long", PF_INT, 0, 0},
	{"I", "char [] or string (or use stringof)", PF_STR, 0, 0},
	{"k", "stack", PF_STACK, 0, 0},
	{"lc", "int", PF_TYPE, 4, 1},
	{"ld", "long", PF_TYPE, 8, 1},
	{"li", "long", PF_TYPE, 8, 1},
	{"lo", "unsigned long", PF_TYPE, 8, 0},
	{"lu", "unsigned long", PF_TYPE, 8, 0},
	{"ls", "wchar_t []", PF_WSTR, 0, 0},
	{"lx", "long", PF_XLONG, 0, 0},
	{"lX", "long", PF_XLONG, 0, 0},
	{"lld", "long long", PF_TYPE, 8, 1},
	{"lli", "long long", PF_TYPE, 8, 1},
	{"llo", "unsigned long long", PF_TYPE, 8, 0},
	{"llu", "unsigned long long", PF_TYPE, 8, 0},
	{"llx", "long long", PF_XLLONG, 0, 0},
	{"llX", "long long", PF_XLLONG, 0, 0},
	{"Le", "long double", PF_TYPE, 16, 1},
	{"LE", "long double", PF_TYPE, 16, 1},
	{"Lf", "long double", PF_TYPE, 16, 1},
	{"Lg", "long double", PF_TYPE, 16, 1},
	{"LG", "long double", PF_TYPE, 16, 1},
	{"o", "char, short, int, long, or long long", PF_INT, 0, 0},
	{"p", "pointer or integer", PF_ADDR, 0, 0},
	{"P", "uint16_t", PF_TYPE, 2, 0},
	{"s", "char [] or string (or use stringof)", PF_STR, 0, 0},
	{"S", "char [] or string (or use stringof)", PF_STR, 0, 0},
	{"T", "int64_t", PF_TIME, 0, 0},
	{"u", "char, short, int, long, or long long", PF_INT, 0, 0},
	{"wc", "int", PF_TYPE, 4, 1},
	{"ws", "wchar_t []", PF_WSTR, 0, 0},
	{"x", "char, short, int, long, or long long", PF_INT, 0, 0},
	{"X", "char, short, int, long, or long long", PF_INT, 0, 0},
	{"Y", "int64_t", PF_TIME, 0, 0},
	{"%", "void", PF_PCT, 0, 0},
};

static bool
dt_pf_typename_is(dt_type_t *t, const char *const *names)
{
	t = dt_type_resolve(t);
	if (t == NULL || t->kind != DT_TK_INT || t->name == NULL)
		return false;
	for (; *names != NULL; names++)
		if (strcmp(t->name, *names) == 0)
			return true;
	return false;
}

static bool
dt_pf_argok(dt_pcb_t *pcb, const struct dt_pfconv *c, dt_node_t *a)
{
	dt_type_t *t = dt_type_resolve(a->type);
	static const char *const shorts[] = {"short", "signed short", "unsigned short", NULL};
	static const char *const longs[] = {"long", "signed long", "unsigned long", NULL};
	static const char *const llongs[] = {"long long", "signed long long", "unsigned long long", NULL};

	/* stack, _symaddr and _usymaddr resolve to void: only %k, %a and %A name them */
	switch (c->check) {
	case PF_ADDR:
		return dt_node_is_integer(a) || (dt_type_is_pointer(a->type) && !dt_node_is_string(a));
	case PF_KADDR:
		return dt_node_is_integer(a) || (dt_type_is_pointer(a->type) && !dt_node_is_string(a)) ||
		       a->type == pcb->t_symaddr;
	case PF_UADDR:
		/* a plain address is a user address only when there is a process ($target) */
		if (a->type == pcb->t_usymaddr)
			return true;
		if (!pcb->opts->macros.set || pcb->opts->macros.target == 0)
			return false;
		return dt_node_is_integer(a) || (dt_type_is_pointer(a->type) && !dt_node_is_string(a));
	case PF_CSI:
		return dt_node_is_integer(a) && t->size <= 4;
	case PF_INT:
		return dt_node_is_integer(a);
	case PF_FP:
		return t != NULL && t->kind == DT_TK_FLOAT;
	case PF_STR:
		if (dt_node_is_string(a))
			return true;
		return t != NULL && t->kind == DT_TK_ARRAY && dt_type_resolve(t->ref) != NULL &&
		       dt_type_resolve(t->ref)->kind == DT_TK_INT && dt_type_resolve(t->ref)->ischar;
	case PF_WSTR:
		return t != NULL && t->kind == DT_TK_ARRAY && dt_type_resolve(t->ref) != NULL &&
		       dt_type_resolve(t->ref)->kind == DT_TK_INT && dt_type_resolve(t->ref)->size == 4;
	case PF_STACK:
		return a->type == pcb->t_stack;
	case PF_TIME:
		return dt_node_is_integer(a) && t->size == 8;
	case PF_TYPE:
		if (c->size == 16)
			return t != NULL && t->kind == DT_TK_FLOAT && t->size == 16;
		return t != NULL && t->kind == DT_TK_INT && !t->ischar == (c->size != 1) && t->size == (uint64_t)c->size &&
		       t->issigned == (c->sign != 0);
	case PF_XSHORT:
		return dt_pf_typename_is(a->type, shorts);
	case PF_XLONG:
		return dt_pf_typename_is(a->type, longs);
	case PF_XLLONG:
		if (dt_pf_typename_is(a->type, llongs))
			return true;
		/* [u]int64_t, or a typedef of one, also fits %llx */
		for (dt_type_t *u = a->type; u != NULL && u->kind == DT_TK_TYPEDEF; u = u->ref)
			if (u->name != NULL && (strcmp(u->name, "int64_t") == 0 || strcmp(u->name, "uint64_t") == 0))
				return true;
		return false;
	case PF_PCT:
		return true;
	}
	return false;
}

/*
 * DTrace's compiler settles %d by the argument's type (pfcheck_dint): the
 * format it hands the consumer says %i for a signed value and %u for an
 * unsigned one, so (char)-3 prints as -3 and (unsigned int)-16 as
 * 4294967280.  `c' is the conversion's letter in the consumer's copy.
 */
static void
dt_pf_dint(const struct dt_pfconv *cv, const dt_node_t *a, char *c)
{
	dt_type_t *t = dt_type_resolve(a->type);
	bool sg = a->kind == DT_NODE_TYPE ? t != NULL && (t->issigned || t->kind == DT_TK_ENUM)
	                                  : (a->flags & DT_NF_SIGNED) != 0;

	if (strcmp(cv->name, "d") == 0 && *c == 'd')
		*c = sg ? 'i' : 'u';
}

/*
 * Check a printf-like format against its arguments as DTrace does
 * (dt_printf_create() then dt_printf_validate()): conversions are numbered
 * from 1 counting %% too, arguments from `foff' + 1.  Malformed formats are
 * D_SYNTAX errors, the tag DTrace's yywarn() gives them.  With `aggs'
 * (printa) a conversion takes an aggregation key, %@ the aggregation's value.
 */
static const char *
dt_printf_check(dt_pcb_t *pcb, dt_node_t *call, const char *name, const char *fmt, dt_node_t *args,
		dt_node_t *aggval)
{
	char *out = dt_strdup(pcb, fmt); /* the format the consumer gets: %d made %i or %u */
	bool aggs = aggval != NULL;
	const char *p = fmt;
	int conv = 0, j = 0;
	dt_node_t *a = args;
	char n1[256];
	const int foff = 1;

	/* pass 0 parses the format (DTrace's dt_printf_create), pass 1 checks the arguments */
	for (int pass = 0; pass < 2; pass++) {
		p = fmt;
		conv = 0;
		while ((p = strchr(p, '%')) != NULL) {
			char cname[8];
			size_t nl = 0;
			bool dot = false, dynw = false, dynp = false, agg = false;
			int digits = 0;
			char c;

			conv++;
			for (;;) {
				c = *++p;
				if (c >= '0' && c <= '9') {
					if (!dot && digits == 0 && c == '0')
						continue;
					while (p[1] >= '0' && p[1] <= '9')
						p++;
					digits++;
					continue;
				}
				if (c == '#' || c == '+' || c == '-' || c == '?' || c == '\'' ||
				    c == ' ')
					continue;
				if (c == '*') {
					bool *f = dot ? &dynp : &dynw;
					if (*f)
						dnerror(pcb, call, D_SYNTAX,
						        "format conversion #%d has more than one "
						        "'*' specified for the output precision",
						        conv);
					*f = true;
					continue;
				}
				if (c == '.') {
					if (dot)
						dnerror(pcb, call, D_SYNTAX,
						        "format conversion #%d has more than one "
						        "'.' specified",
						        conv);
					dot = true;
					digits = 0;
					continue;
				}
				if (c == '@') {
					agg = true;
					continue;
				}
				if (c == '$')
					dnerror(pcb, call, D_SYNTAX,
					        "format conversion #%d uses unsupported positional "
					        "format (%%n$)",
					        conv);
				if (c == '%' && p[-1] != '%')
					dnerror(pcb, call, D_SYNTAX,
					        "format conversion #%d cannot be combined with "
					        "other format flags: %%%%",
					        conv);
				if (c == '\0')
					dnerror(pcb, call, D_SYNTAX,
					        "format conversion #%d name expected before end of "
					        "format string",
					        conv);
				if (c == 'h' || c == 'l' || c == 'L' || c == 'w') {
					if (nl < sizeof(cname) - 2)
						cname[nl++] = c;
					continue;
				}
				cname[nl++] = c;
				cname[nl] = '\0';
				break;
			}
			p++;
			const struct dt_pfconv *cv = NULL;
			for (size_t i = 0; i < sizeof(dt_pfconvs) / sizeof(dt_pfconvs[0]); i++)
				if (strcmp(dt_pfconvs[i].name, cname) == 0)
					cv = &dt_pfconvs[i];
			if (cv == NULL)
				dnerror(pcb, call, D_SYNTAX,
				        "format conversion #%d is undefined: %%%s", conv, cname);
			if (cv->check == PF_PCT || pass == 0)
				continue;

			const char *dyns[2];
			int dync = 0;
			if (dynp)
				dyns[dync++] = ".*";
			if (dynw)
				dyns[dync++] = "*";
			for (; dync != 0; dync--) {
				if (a == NULL)
					dnerror(pcb, call, D_PRINTF_DYN_PROTO,
					        "%s( ) prototype mismatch: conversion #%d (%%%s) "
					        "is missing a corresponding \"%s\" argument",
					        name, conv, cv->name, dyns[dync - 1]);
				if (!dt_node_is_integer(a))
					dnerror(pcb, call, D_PRINTF_DYN_TYPE,
					        "%s( ) argument #%d is incompatible with "
					        "conversion #%d prototype:\n\tconversion: %% %s "
					        "%s\n\t prototype: int\n\t  argument: %s",
					        name, j + foff + 1, conv, dyns[dync - 1], cv->name,
					        dt_node_type_name(a, n1, sizeof(n1)));
				a = a->list;
				j++;
			}
			if (agg) {
				if (!aggs)
					dnerror(pcb, call, D_PRINTF_AGG_CONV,
					        "%%@ conversion requires an aggregation and is not "
					        "for use with %s( )",
					        name);
				if (!dt_pf_argok(pcb, cv, aggval))
					dnerror(pcb, call, D_PRINTF_ARG_TYPE,
					        "%s( ) aggregating action is incompatible with "
					        "conversion #%d prototype:\n\tconversion: %%%s\n\t "
					        "prototype: %s\n\t  argument: %s",
					        name, conv, cv->name, cv->proto,
					        dt_node_type_name(aggval, n1, sizeof(n1)));
				dt_pf_dint(cv, aggval, out + (p - 1 - fmt));
				continue;
			}
			if (a == NULL)
				dnerror(pcb, call, D_PRINTF_ARG_PROTO,
				        "%s( ) prototype mismatch: conversion #%d (%%%s) is "
				        "missing a corresponding value argument",
				        name, conv, cv->name);
			if (!dt_pf_argok(pcb, cv, a))
				dnerror(pcb, call, D_PRINTF_ARG_TYPE,
				        "%s( ) argument #%d is incompatible with conversion #%d "
				        "prototype:\n\tconversion: %%%s\n\t prototype: %s\n\t  "
				        "argument: %s",
				        name, j + foff + 1, conv, cv->name, cv->proto,
				        dt_node_type_name(a, n1, sizeof(n1)));
			dt_pf_dint(cv, a, out + (p - 1 - fmt));
			a = a->list;
			j++;
		}
	}
	if (!aggs && a != NULL)
		dnerror(
		    pcb, call, D_PRINTF_ARG_EXTRA,
		    "%s( ) prototype mismatch: only %d arguments required by this format string",
		    name, j);
	return out;
}

static void
dt_action_printflike(dt_pcb_t *pcb, dt_actlist_t *al, dt_node_t *call, uint16_t kind)
{
	dt_node_t *f = call->args;
	const char *name = call->ident->name;
	if (f == NULL)
		dnerror(pcb, call, D_PROTO_LEN, "%s( ) prototype mismatch: 0 args passed, 1 expected", name);
	if (f->kind != DT_NODE_STRING) {
		char n1[256];
		dnerror(pcb, call, D_PRINTF_ARG_FMT,
			"%s( ) argument #1 is incompatible with prototype:\n\tprototype: string constant\n\t argument: %s",
			name, dt_node_type_name(f, n1, sizeof(n1)));
	}
	if (kind == DTRACEACT_FREOPEN && strcmp(f->string, ".") == 0)
		dnerror(pcb, call, D_FREOPEN_INVALID, "%s( ) argument #1 cannot be \"%s\"", name, ".");
	if (f->string[0] == '\0' && kind != DTRACEACT_FREOPEN)
		dnerror(pcb, call, D_PRINTF_FMT_EMPTY, "%s( ) format string is empty", name);
	const char *pfmt = dt_printf_check(pcb, call, name, f->string, f->list, NULL);
	/* freopen(""): DTrace's restore sentinel ".", which no file open for writing can be */
	if (kind == DTRACEACT_FREOPEN && f->string[0] == '\0')
		pfmt = ".";
	if (f->list == NULL) {
		dt_difo_t *dp = dt_difo_new(pcb);
		dp->what = "action";
		dt_cg_expr_difo(dp, dt_node_int(pcb, 0));
		dp->buf[0] = DIF_INSTR_RET(DIF_REG_R0);
		dp->len = 1;
		dp->intlen = 0;
		dp->strlen = 0;
		dp->assembled = false; /* built directly, as DTrace does: -S does not list it */
		dp->rtype.dtdt_size = 8;
		struct dt_stmt_act *a = dt_act_add(al, kind, dp);
		a->format = pfmt;
		return;
	}
	/*
	 * No conversion takes a void value; a value of an action that one
	 * takes (stack() for %k, sym() for %a) is refused by code generation,
	 * as in DTrace.
	 */
	for (dt_node_t *x = f->list; x != NULL; x = x->list) {
		dt_node_t *save = x->list;
		x->list = NULL;
		struct dt_stmt_act *a = dt_act_add(al, kind, dt_expr_difo(pcb, x, "action"));
		x->list = save;
		a->format = pfmt;
	}
}

static int
dt_agg_index(dt_pcb_t *pcb, dt_ident_t *aid)
{
	dt_cprog_t *prog = pcb->prog;
	for (size_t i = 0; i < prog->naggs; i++)
		if (prog->aggs[i].id == (dtrace_aggvarid_t)aid->id)
			return (int)i;
	dt_cagg_t *g = realloc(prog->aggs, (prog->naggs + 1) * sizeof(*g));
	if (g == NULL)
		dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
	prog->aggs = g;
	memset(&g[prog->naggs], 0, sizeof(*g));
	g[prog->naggs].name = strdup(strcmp(aid->name, "_") == 0 ? "" : aid->name);
	g[prog->naggs].id = aid->id;
	g[prog->naggs].kind = aid->aggfunc != NULL ? (uint16_t)aid->aggfunc->id : 0;
	return (int)prog->naggs++;
}

static dt_ident_t *
dt_agg_arg(dt_pcb_t *pcb, dt_node_t *call, dt_node_t *a, int argn, dt_errtag_t tag_arg, dt_errtag_t tag_bad)
{
	char n1[256];
	if (a == NULL || a->kind != DT_NODE_AGG)
		dnerror(pcb, call, tag_arg,
			"%s( ) argument #%d is incompatible with prototype:\n\tprototype: aggregation\n\t argument: %s",
			call->ident->name, argn, a == NULL ? "void" : dt_node_type_name(a, n1, sizeof(n1)));
	if (!(a->ident->flags & DT_IDFLG_MOD))
		dnerror(pcb, call, tag_bad, "undefined aggregation: @%s", a->ident->name);
	return a->ident;
}

/* DTrace's dt_node_is_posconst(): a non-zero, non-negative integer constant */
static bool
dt_node_is_posconst(const dt_node_t *n)
{
	return n != NULL && n->kind == DT_NODE_INT && n->value != 0 &&
	       (!(n->flags & DT_NF_SIGNED) || (int64_t)n->value > 0);
}

/* stack([frames]) as an action or an aggregation key */
static uint64_t
dt_stack_args(dt_pcb_t *pcb, dt_node_t *arg0)
{
	if (arg0 == NULL)
		return 0;
	if (arg0->list != NULL)
		dnerror(pcb, arg0, D_STACK_PROTO, "stack( ) prototype mismatch: too many arguments");
	if (!dt_node_is_posconst(arg0))
		dnerror(pcb, arg0, D_STACK_SIZE, "stack( ) size must be a non-zero positive integral constant expression");
	return arg0->value;
}

/* ustack([frames[, strsize]]) and jstack(): DTrace words both as ustack( ) */
static uint64_t
dt_ustack_args(dt_pcb_t *pcb, dt_node_t *arg0)
{
	uint64_t nf = 0, ss = 0;
	dt_node_t *arg1 = arg0 != NULL ? arg0->list : NULL;
	if (arg0 != NULL) {
		if (!dt_node_is_posconst(arg0))
			dnerror(pcb, arg0, D_USTACK_FRAMES, "ustack( ) argument #1 must be a non-zero positive integer constant");
		nf = arg0->value;
	}
	if (arg1 != NULL) {
		if (arg1->kind != DT_NODE_INT || ((arg1->flags & DT_NF_SIGNED) && (int64_t)arg1->value < 0))
			dnerror(pcb, arg1, D_USTACK_STRSIZE, "ustack( ) argument #2 must be a positive integer constant");
		if (arg1->list != NULL)
			dnerror(pcb, arg1, D_USTACK_PROTO, "ustack( ) prototype mismatch: too many arguments");
		ss = arg1->value;
	}
	return DTRACE_USTACK_ARG(nf, ss);
}

/*
 * sym(), mod(), usym(), umod(), uaddr(): the address, recorded as 64 bits
 * whatever its type (sym(0) included), as the core requires of these records.
 */
static dt_difo_t *
dt_symaddr_difo(dt_pcb_t *pcb, dt_node_t *addr)
{
	dt_difo_t *dp = dt_expr_difo(pcb, addr, "action");
	dp->rtype.dtdt_size = sizeof(uint64_t);
	return dp;
}

/* The record kind of an action whose result is a value (an aggregation key), else NONE. */
static uint16_t
dt_act_valkind(uint32_t id)
{
	switch (id) {
	case DT_ACT_STACK: return DTRACEACT_STACK;
	case DT_ACT_USTACK: return DTRACEACT_USTACK;
	case DT_ACT_JSTACK: return DTRACEACT_JSTACK;
	case DT_ACT_SYM: return DTRACEACT_SYM;
	case DT_ACT_MOD: return DTRACEACT_MOD;
	case DT_ACT_USYM: return DTRACEACT_USYM;
	case DT_ACT_UMOD: return DTRACEACT_UMOD;
	case DT_ACT_UADDR: return DTRACEACT_UADDR;
	default: return DTRACEACT_NONE;
	}
}

static void
dt_compile_agg(dt_pcb_t *pcb, dt_actlist_t *al, dt_node_t *agg)
{
	dt_ident_t *aid = agg->ident;
	dt_node_t *fn = agg->aggfun;
	dt_node_t *arg1, *incr = NULL;
	uint32_t n = 1;
	uint64_t arg = 0;
	int argmax = 0;
	const char *fname;
	char n1[256];

	if (fn == NULL)
		dnerror(pcb, agg, D_AGG_NULL, "expression has null effect: @%s", aid->name);
	fname = fn->ident->name;
	arg1 = fn->args;
	int argc = dt_node_count(arg1);
	uint32_t fid = fn->ident->id;

	/* the counts up to the fixed parameters were checked with the prototype while cooking */
	(void)argc;
	if (arg1 != NULL && !dt_node_is_scalar(arg1))
		dnerror(pcb, fn, D_AGG_SCALAR, "%s( ) argument #1 must be of scalar type", fname);

	if (fid == DTRACEAGG_LQUANTIZE) {
		dt_node_t *a1 = arg1->list, *a2 = a1->list, *a3 = a2->list;
		int64_t base, limit;
		uint64_t step = 1, nlevels;
		if (a1->kind != DT_NODE_INT)
			dnerror(pcb, a1, D_LQUANT_BASETYPE, "lquantize( ) argument #1 must be an integer constant");
		base = (int64_t)a1->value;
		if (base < INT32_MIN || base > INT32_MAX)
			dnerror(pcb, a1, D_LQUANT_BASEVAL, "lquantize( ) argument #1 must be a 32-bit quantity");
		if (a2->kind != DT_NODE_INT)
			dnerror(pcb, a2, D_LQUANT_LIMTYPE, "lquantize( ) argument #2 must be an integer constant");
		limit = (int64_t)a2->value;
		if (limit < INT32_MIN || limit > INT32_MAX)
			dnerror(pcb, a2, D_LQUANT_LIMVAL, "lquantize( ) argument #2 must be a 32-bit quantity");
		if (limit < base)
			dnerror(pcb, agg, D_LQUANT_MISMATCH,
				"lquantize( ) base (argument #1) must be less than limit (argument #2)");
		if (a3 != NULL) {
			if (!dt_node_is_posconst(a3))
				dnerror(pcb, a3, D_LQUANT_STEPTYPE,
					"lquantize( ) argument #3 must be a non-zero positive integer constant");
			if ((step = a3->value) > UINT16_MAX)
				dnerror(pcb, a3, D_LQUANT_STEPVAL, "lquantize( ) argument #3 must be a 16-bit quantity");
		}
		nlevels = (uint64_t)(limit - base) / step;
		if (nlevels == 0)
			dnerror(pcb, agg, D_LQUANT_STEPLARGE,
				"lquantize( ) step (argument #3) too large: must have at least one quantization level");
		if (nlevels > UINT16_MAX)
			dnerror(pcb, agg, D_LQUANT_STEPSMALL,
				"lquantize( ) step (argument #3) too small: number of quantization levels must be a 16-bit quantity");
		arg = DTRACE_LQUANTIZE_ARG(step, nlevels, base);
		if (aid->aggarg == 0) {
			aid->aggarg = arg;
		} else if (aid->aggarg != arg) {
			uint64_t o = aid->aggarg;
			int ob = DTRACE_LQUANTIZE_BASE(o), on = DTRACE_LQUANTIZE_LEVELS(o), os = DTRACE_LQUANTIZE_STEP(o);
			if (ob != base)
				dnerror(pcb, agg, D_LQUANT_MATCHBASE,
					"lquantize( ) base (argument #1) doesn't match previous declaration: expected %d, found %d",
					ob, (int)base);
			if ((uint64_t)on * (uint64_t)os != nlevels * step)
				dnerror(pcb, agg, D_LQUANT_MATCHLIM,
					"lquantize( ) limit (argument #2) doesn't match previous declaration: expected %d, found %d",
					ob + on * os, (int)base + (int)nlevels * (int)step);
			dnerror(pcb, agg, D_LQUANT_MATCHSTEP,
				"lquantize( ) step (argument #3) doesn't match previous declaration: expected %d, found %d",
				os, (int)step);
		}
		incr = a3 != NULL ? a3->list : NULL;
		argmax = 5;
	} else if (fid == DTRACEAGG_LLQUANTIZE) {
		/*
		 * DTrace's checks (illumos and FreeBSD dt_compile_agg()): each of
		 * factor, low and high magnitude and steps an unsigned 16-bit
		 * constant, then the rules the kernel enforces again when it
		 * enables the aggregation (dtrace_ecb_aggregation_create()), so
		 * that no program compiles that cannot be enabled.
		 */
		static const struct {
			const char *str;
			dt_errtag_t badtype, badval, mismatch;
		} lla[4] = {
			{"factor", D_LLQUANT_FACTORTYPE, D_LLQUANT_FACTORVAL, D_LLQUANT_FACTORMATCH},
			{"low magnitude", D_LLQUANT_LOWTYPE, D_LLQUANT_LOWVAL, D_LLQUANT_LOWMATCH},
			{"high magnitude", D_LLQUANT_HIGHTYPE, D_LLQUANT_HIGHVAL, D_LLQUANT_HIGHMATCH},
			{"linear steps per magnitude", D_LLQUANT_NSTEPTYPE, D_LLQUANT_NSTEPVAL,
			 D_LLQUANT_NSTEPMATCH},
		};
		dt_node_t *a = arg1->list;
		uint64_t val[4], v, order;
		for (int i = 0; i < 4; i++, a = a->list) {
			if (a->kind != DT_NODE_INT)
				dnerror(pcb, a, lla[i].badtype, "llquantize( ) argument #%d (%s) must be an integer constant",
					i + 1, lla[i].str);
			if (a->value > UINT16_MAX)
				dnerror(pcb, a, lla[i].badval,
					"llquantize( ) argument #%d (%s) must be an unsigned 16-bit quantity", i + 1,
					lla[i].str);
			val[i] = a->value;
		}
		if (val[0] < 2)
			dnerror(pcb, agg, D_LLQUANT_FACTORSMALL, "llquantize( ) factor (argument #1) must be two or more");
		if (val[1] >= val[2])
			dnerror(pcb, agg, D_LLQUANT_MAGRANGE,
				"llquantize( ) high magnitude (argument #3) must be greater than low magnitude (argument #2)");
		if (val[3] < val[0])
			dnerror(pcb, agg, D_LLQUANT_FACTORNSTEPS,
				"llquantize( ) factor (argument #1) must be less than or equal to the number of linear steps per magnitude (argument #4)");
		for (v = val[0]; v < val[3]; v *= val[0])
			continue;
		if ((val[3] % val[0]) != 0 || (v % val[3]) != 0)
			dnerror(pcb, agg, D_LLQUANT_FACTOREVEN,
				"llquantize( ) factor (argument #1) must evenly divide the number of steps per magnitude (argument #4), and the number of steps per magnitude must evenly divide a power of the factor");
		/* the kernel's buckets reach factor^(high + 1) (FreeBSD's reading of the check) */
		order = 1;
		for (uint64_t i = 0; i <= val[2] + 1; i++) {
			if (order * val[0] > order) {
				order *= val[0];
				continue;
			}
			dnerror(pcb, agg, D_LLQUANT_MAGTOOBIG,
				"llquantize( ) factor (%d) raised to power of high magnitude (%d) plus 1 overflows 64-bits",
				(int)val[0], (int)val[2]);
		}
		arg = DTRACE_LLQUANTIZE_ARG(val[0], val[1], val[2], val[3]);
		if (aid->aggarg == 0) {
			aid->aggarg = arg;
		} else if (aid->aggarg != arg) {
			uint64_t o = aid->aggarg;
			const uint64_t ov[4] = {DTRACE_LLQUANTIZE_FACTOR(o), DTRACE_LLQUANTIZE_LOW(o),
						DTRACE_LLQUANTIZE_HIGH(o), DTRACE_LLQUANTIZE_NSTEP(o)};
			int i = 0;
			while (i < 3 && ov[i] == val[i])
				i++;
			dnerror(pcb, agg, lla[i].mismatch,
				"llquantize( ) %s (argument #%d) doesn't match previous declaration: expected %d, found %d",
				lla[i].str, i + 1, (int)ov[i], (int)val[i]);
		}
		dt_node_t *a4 = arg1->list->list->list->list;
		incr = a4->list;
		argmax = 6;
	} else if (fid == DTRACEAGG_QUANTIZE) {
		incr = arg1->list;
		argmax = 2;
	}

	/* the aggregation's id is the first member of its key */
	struct dt_stmt_act *a = dt_act_add(al, DTRACEACT_DIFEXPR, dt_difo_const(pcb, aid->id));
	a->agg = dt_agg_index(pcb, aid);
	for (dt_node_t *k = agg->args; k != NULL; k = k->list) {
		dt_node_t *save = k->list;
		n++;
		if (dt_node_is_actfunc(k)) {
			uint16_t kind = dt_act_valkind(k->ident->id);
			if (kind == DTRACEACT_NONE)
				dnerror(pcb, k, D_KEY_TYPE, "%s expression may not be used as %s index: key #%d",
					dt_node_type_name(k, n1, sizeof(n1)), dt_idkind_name(DT_IDENT_AGG), (int)n - 1);
			if (kind == DTRACEACT_STACK || kind == DTRACEACT_USTACK || kind == DTRACEACT_JSTACK) {
				struct dt_stmt_act *s = dt_act_add(al, kind, NULL);
				s->arg = kind == DTRACEACT_STACK ? dt_stack_args(pcb, k->args) : dt_ustack_args(pcb, k->args);
				s->agg = a->agg;
			} else {
				k->args->list = NULL;
				struct dt_stmt_act *s = dt_act_add(al, kind, dt_symaddr_difo(pcb, k->args));
				s->agg = a->agg;
			}
			continue;
		}
		if (dt_node_is_void(k) || k->kind == DT_NODE_AGG || dt_node_is_dynamic(k) || dt_node_xlator(k) != NULL)
			dnerror(pcb, k, D_KEY_TYPE, "%s expression may not be used as %s index: key #%d",
				dt_node_type_name(k, n1, sizeof(n1)), dt_idkind_name(DT_IDENT_AGG), (int)n - 1);
		k->list = NULL;
		struct dt_stmt_act *s = dt_act_add(al, DTRACEACT_DIFEXPR, dt_expr_difo(pcb, k, "action"));
		k->list = save;
		s->agg = a->agg;
	}
	/* key signatures must agree across uses */
	int nk = dt_node_count(agg->args);
	if (aid->keys == NULL) {
		aid->keys = dt_zalloc(pcb, sizeof(dt_type_t *) * ((size_t)nk + 1));
		aid->nkeys = nk;
		int i = 0;
		for (dt_node_t *k = agg->args; k != NULL; k = k->list, i++)
			aid->keys[i] = k->type;
	} else {
		/* later uses must match the signature (DTrace's dt_idcook_sign) */
		if (aid->nkeys != nk)
			dnerror(pcb, agg, D_PROTO_LEN, "@%s[ ] prototype mismatch: %d key%spassed, %d expected",
				aid->name, nk, nk == 1 ? " " : "s ", aid->nkeys);
		int i = 0;
		for (dt_node_t *k = agg->args; k != NULL; k = k->list, i++) {
			dt_node_t proto;
			char n2[256];
			memset(&proto, 0, sizeof(proto));
			proto.kind = DT_NODE_TYPE;
			proto.type = aid->keys[i];
			if (!dt_node_is_argcompat(&proto, k))
				dnerror(pcb, agg, D_PROTO_ARG,
					"@%s[ ] key #%d is incompatible with prototype:\n\tprototype: %s\n\t      key: %s",
					aid->name, i + 1, dt_node_type_name(&proto, n1, sizeof(n1)),
					dt_node_type_name(k, n2, sizeof(n2)));
		}
	}
	if (incr != NULL) {
		if (!dt_node_is_scalar(incr))
			dnerror(pcb, agg, D_PROTO_ARG, "%s( ) increment value (argument #%d) must be of scalar type",
				fname, argmax);
		if (incr->list != NULL)
			dnerror(pcb, incr, D_PROTO_LEN, "%s( ) prototype mismatch: %d args passed, at most %d expected",
				fname, argmax + dt_node_count(incr->list), argmax);
		n++;
		dt_node_t *save = incr->list;
		incr->list = NULL;
		dt_difo_t *dp = dt_expr_difo(pcb, incr, "action");
		incr->list = save;
		memset(&dp->rtype, 0, sizeof(dp->rtype));
		dp->rtype.dtdt_kind = DIF_TYPE_CTF;
		dp->rtype.dtdt_ckind = 1;
		struct dt_stmt_act *s = dt_act_add(al, DTRACEACT_DIFEXPR, dp);
		s->agg = a->agg;
	}
	dt_difo_t *vd = NULL;
	if (arg1 != NULL) {
		dt_node_t *save = arg1->list;
		arg1->list = NULL;
		vd = dt_expr_difo(pcb, arg1, "action");
		arg1->list = save;
	}
	struct dt_stmt_act *fa = dt_act_add(al, (uint16_t)fid, vd);
	fa->ntuple = n;
	fa->arg = arg;
	fa->agg = a->agg;
	pcb->prog->aggs[a->agg].arg = arg;
	pcb->prog->aggs[a->agg].nkeys = nk;
	pcb->prog->aggs[a->agg].kind = (uint16_t)fid;
}

static void
dt_one_arg_action(dt_pcb_t *pcb, dt_actlist_t *al, dt_node_t *call, uint16_t kind)
{
	dt_node_t *x = call->args;
	if (x == NULL || x->list != NULL)
		dnerror(pcb, call, D_PROTO_LEN, "%s( ) prototype mismatch: %d args passed, 1 expected",
			call->ident->name, dt_node_count(x));
	dt_act_add(al, kind, dt_expr_difo(pcb, x, "action"));
}

static void
dt_compile_action(dt_pcb_t *pcb, dt_actlist_t *al, dt_node_t *call)
{
	dt_ident_t *idp = call->ident;
	char n1[256];

	switch (idp->id) {
	case DT_ACT_TRACE:
	case DT_ACT_PRINT: {
		/* print() is trace() that also names the record's type (DTrace's dtsd_strdata) */
		dt_node_t *x = call->args;
		bool trace = idp->id == DT_ACT_TRACE;
		if (dt_node_count(x) != 1)
			dnerror(pcb, call, D_PROTO_LEN, "%s( ) prototype mismatch: %d args passed, 1 expected",
				idp->name, dt_node_count(x));
		/*
		 * An aggregating function is not void but has no value, and a
		 * stack or symbol action's value (stack(), sym()) is not void
		 * either: code generation refuses them.
		 */
		if (dt_node_is_void(x) &&
		    !(x->kind == DT_NODE_FUNC && x->ident != NULL && x->ident->kind == DT_IDENT_AGGFUNC))
			dnerror(pcb, x, trace ? D_TRACE_VOID : D_PRINT_VOID,
				"%s( ) may not be applied to a void expression", idp->name);
		if (dt_node_is_dynamic(x))
			dnerror(pcb, x, trace ? D_TRACE_DYN : D_PRINT_DYN,
				"%s( ) may not be applied to a translated pointer", idp->name);
		if (x->kind == DT_NODE_AGG)
			dnerror(pcb, x, trace ? D_TRACE_AGG : D_PRINT_AGG, "%s( ) may not be applied to an aggregation%s",
				idp->name, trace ? "" : " -- did you mean printa()?");
		struct dt_stmt_act *a = dt_act_add(al, DTRACEACT_DIFEXPR, dt_expr_difo(pcb, x, "action"));
		if (!trace) {
			size_t ti;
			char sd[32];
			a->ptype = dt_type_export(pcb, x->type, &ti);
			snprintf(sd, sizeof(sd), "D`%zu", ti);
			a->strdata = dt_strdup(pcb, sd);
		}
		al->data = true;
		break;
	}
	case DT_ACT_PRINTF:
		dt_action_printflike(pcb, al, call, DTRACEACT_PRINTF);
		al->data = true;
		break;
	case DT_ACT_SYSTEM:
		dt_action_printflike(pcb, al, call, DTRACEACT_SYSTEM);
		break;
	case DT_ACT_FREOPEN:
		dt_action_printflike(pcb, al, call, DTRACEACT_FREOPEN);
		break;
	case DT_ACT_PRINTA: {
		/* DTrace's dt_action_printa(): an optional format, then aggregations */
		dt_node_t *a = call->args;
		const char *fmt = NULL;
		int argc = dt_node_count(a), argr = 1;
		if (a->kind == DT_NODE_STRING) {
			fmt = a->string;
			a = a->list;
			argr = 2;
		}
		if (argc < argr)
			dnerror(pcb, call, D_PRINTA_PROTO, "%s( ) prototype mismatch: %d args passed, %d expected",
				idp->name, argc, argr);
		dt_ident_t *first = NULL;
		for (; a != NULL; a = a->list, argr++) {
			if (a->kind != DT_NODE_AGG)
				dnerror(pcb, call, D_PRINTA_AGGARG,
					"%s( ) argument #%d is incompatible with prototype:\n\tprototype: aggregation\n\t argument: %s",
					idp->name, argr, dt_node_type_name(a, n1, sizeof(n1)));
			dt_ident_t *aid = dt_agg_arg(pcb, call, a, argr, D_PRINTA_AGGARG, D_PRINTA_AGGBAD);
			if (first != NULL && first->nkeys != aid->nkeys)
				dnerror(pcb, call, D_PRINTA_AGGKEY,
					"printa( ): @%s and @%s do not have matching key signatures: @%s has %d key%s, @%s has %d key%s",
					first->name, aid->name, first->name, first->nkeys, first->nkeys == 1 ? "" : "s",
					aid->name, aid->nkeys, aid->nkeys == 1 ? "" : "s");
			if (first != NULL) {
				for (int k = 0; k < first->nkeys; k++) {
					dt_node_t l, r;
					char n2[256];
					memset(&l, 0, sizeof(l));
					memset(&r, 0, sizeof(r));
					l.kind = r.kind = DT_NODE_TYPE; /* prototypes, not constants */
					l.type = first->keys[k];
					r.type = aid->keys[k];
					if (!dt_node_is_argcompat(&l, &r))
						dnerror(pcb, call, D_PRINTA_AGGPROTO,
							"printa( ): @%s[ ] key #%d is incompatible with @%s:\n%9s key #%d: %s\n%9s key #%d: %s",
							aid->name, k + 1, first->name, first->name, k + 1,
							dt_node_type_name(&l, n1, sizeof(n1)), aid->name, k + 1,
							dt_node_type_name(&r, n2, sizeof(n2)));
				}
			} else {
				first = aid;
				if (fmt != NULL) {
					/* the format's conversions take the keys, %@ the aggregated value */
					dt_node_t *keys = NULL, **kp = &keys, val;
					for (int k = 0; k < aid->nkeys; k++) {
						dt_node_t *kn = dt_node_new(pcb, DT_NODE_TYPE);
						kn->type = aid->keys[k];
						*kp = kn;
						kp = &kn->list;
					}
					memset(&val, 0, sizeof(val));
					val.kind = DT_NODE_TYPE;
					val.type = dt_type_lookup(pcb, aid->aggfunc != NULL &&
								aid->aggfunc->id == DTRACEAGG_COUNT ? "uint64_t" : "int64_t");
					fmt = dt_printf_check(pcb, call, idp->name, fmt, keys, &val);
				}
			}
			struct dt_stmt_act *s = dt_act_add(al, DTRACEACT_PRINTA, dt_difo_const(pcb, aid->id));
			s->format = fmt;
			s->agg = dt_agg_index(pcb, aid);
		}
		al->data = true;
		break;
	}
	case DT_ACT_EXIT:
		dt_one_arg_action(pcb, al, call, DTRACEACT_EXIT);
		/*
		 * The status is recorded as an int whatever the integer type
		 * of the argument, as DTrace's dt_action_exit sets it; the
		 * framework refuses an exit() of any other size.
		 */
		al->a[al->n - 1].difo->rtype.dtdt_size = sizeof(int32_t);
		break;
	case DT_ACT_STACK: {
		struct dt_stmt_act *s = dt_act_add(al, DTRACEACT_STACK, NULL);
		s->arg = dt_stack_args(pcb, call->args);
		al->data = true;
		break;
	}
	case DT_ACT_USTACK:
	case DT_ACT_JSTACK: {
		struct dt_stmt_act *s = dt_act_add(al, idp->id == DT_ACT_USTACK ? DTRACEACT_USTACK : DTRACEACT_JSTACK, NULL);
		s->arg = dt_ustack_args(pcb, call->args);
		al->data = true;
		break;
	}
	case DT_ACT_SPECULATE:
		dt_one_arg_action(pcb, al, call, DTRACEACT_SPECULATE);
		break;
	case DT_ACT_COMMIT:
		dt_one_arg_action(pcb, al, call, DTRACEACT_COMMIT);
		break;
	case DT_ACT_DISCARD:
		dt_one_arg_action(pcb, al, call, DTRACEACT_DISCARD);
		break;
	case DT_ACT_CHILL:
		dt_one_arg_action(pcb, al, call, DTRACEACT_CHILL);
		break;
	case DT_ACT_RAISE:
		dt_one_arg_action(pcb, al, call, DTRACEACT_RAISE);
		break;
	case DT_ACT_STOP:
		dt_act_add(al, DTRACEACT_STOP, NULL);
		break;
	case DT_ACT_BREAKPOINT:
		dt_act_add(al, DTRACEACT_BREAKPOINT, NULL);
		break;
	case DT_ACT_PANIC:
		dt_act_add(al, DTRACEACT_PANIC, NULL);
		break;
	case DT_ACT_SYM:
	case DT_ACT_MOD:
	case DT_ACT_USYM:
	case DT_ACT_UMOD:
	case DT_ACT_UADDR: {
		dt_act_add(al, dt_act_valkind(idp->id), dt_symaddr_difo(pcb, call->args));
		al->data = true;
		break;
	}
	case DT_ACT_TRACEMEM: {
		dt_node_t *addr = call->args, *size = addr != NULL ? addr->list : NULL;
		if (!dt_node_is_integer(addr) && (!dt_type_is_pointer(addr->type) || dt_node_is_string(addr)))
			dnerror(pcb, addr, D_TRACEMEM_ADDR, "tracemem( ) argument #1 is incompatible with prototype:\n\tprototype: pointer or integer\n\t argument: %s",
				dt_node_type_name(addr, n1, sizeof(n1)));
		if (!dt_node_is_posconst(size))
			dnerror(pcb, size, D_TRACEMEM_SIZE, "tracemem( ) argument #2 must be a non-zero positive integral constant expression");
		if (size->list != NULL) {
			dt_node_t *dyn = size->list;
			if (dyn->list != NULL)
				dnerror(pcb, dyn, D_TRACEMEM_ARGS, "tracemem ( ) prototype mismatch: expected at most 3 args");
			if (!dt_node_is_scalar(dyn))
				dnerror(pcb, dyn, D_TRACEMEM_DYNSIZE, "tracemem ( ) dynamic size (argument #3) must be of scalar type");
			dt_difo_t *dp = dt_expr_difo(pcb, dyn, "action");
			/* the consumer reads the dynamic size as a 64-bit record */
			memset(&dp->rtype, 0, sizeof(dp->rtype));
			dp->rtype.dtdt_kind = DIF_TYPE_CTF;
			dp->rtype.dtdt_ckind = 1;
			dp->rtype.dtdt_size = sizeof(uint64_t);
			dt_act_add(al, DTRACEACT_TRACEMEM_DYNSIZE, dp);
		}
		addr->list = NULL;
		dt_difo_t *mp = dt_expr_difo(pcb, addr, "action");
		/* the core sizes the record from the DIFO: the address, by reference, of size bytes */
		mp->rtype.dtdt_flags |= DIF_TF_BYREF;
		mp->rtype.dtdt_size = (uint32_t)size->value;
		struct dt_stmt_act *s = dt_act_add(al, DTRACEACT_TRACEMEM, mp);
		addr->list = size;
		s->arg = size->value;
		al->data = true;
		break;
	}
	case DT_ACT_CLEAR:
	case DT_ACT_NORMALIZE:
	case DT_ACT_DENORMALIZE:
	case DT_ACT_TRUNC: {
		/* DTrace's dt_action_clear/normalize/trunc: the count, then the aggregation, then the value */
		int argc = dt_node_count(call->args);
		bool clear = idp->id == DT_ACT_CLEAR, trunc = idp->id == DT_ACT_TRUNC;
		bool denorm = idp->id == DT_ACT_DENORMALIZE;
		dt_errtag_t targ = clear ? D_CLEAR_AGGARG : trunc ? D_TRUNC_AGGARG : D_NORMALIZE_AGGARG;
		dt_errtag_t tbad = clear ? D_CLEAR_AGGBAD : trunc ? D_TRUNC_AGGBAD : D_NORMALIZE_AGGBAD;
		if (clear && argc != 1)
			dnerror(pcb, call, D_CLEAR_PROTO, "%s( ) prototype mismatch: %d args passed, 1 expected",
				idp->name, argc);
		if (!clear && !trunc && argc != (denorm ? 1 : 2))
			dnerror(pcb, call, D_NORMALIZE_PROTO, "%s( ) prototype mismatch: %d args passed, %d expected",
				idp->name, argc, denorm ? 1 : 2);
		if (trunc && (argc < 1 || argc > 2))
			dnerror(pcb, call, D_TRUNC_PROTO, "%s( ) prototype mismatch: %d args passed, %s expected",
				idp->name, argc, argc < 1 ? "at least 1" : "no more than 2");
		dt_node_t *v = call->args->list;
		if (call->args->kind != DT_NODE_AGG)
			dnerror(pcb, call, targ,
				"%s( ) argument #1 is incompatible with prototype:\n\tprototype: aggregation\n\t argument: %s",
				idp->name, dt_node_type_name(call->args, n1, sizeof(n1)));
		if (v != NULL && !dt_node_is_scalar(v))
			dnerror(pcb, call, trunc ? D_TRUNC_SCALAR : D_NORMALIZE_SCALAR,
				"%s( ) argument #2 must be of scalar type", idp->name);
		dt_ident_t *aid = dt_agg_arg(pcb, call, call->args, 1, targ, tbad);
		struct dt_stmt_act *s = dt_act_add(al, DTRACEACT_LIBACT, dt_difo_const(pcb, aid->id));
		s->arg = idp->id;
		s->agg = dt_agg_index(pcb, aid);
		if (clear || denorm)
			break;
		s = dt_act_add(al, DTRACEACT_LIBACT, v != NULL ? dt_expr_difo(pcb, v, "action") : dt_difo_const(pcb, 0));
		s->arg = idp->id;
		s->agg = dt_agg_index(pcb, aid);
		break;
	}
	case DT_ACT_FTRUNCATE:
		dt_act_add(al, DTRACEACT_LIBACT, dt_difo_const(pcb, 0))->arg = DT_ACT_FTRUNCATE;
		break;
	case DT_ACT_SETOPT: {
		/* any string expressions: the consumer applies them when it reads the records */
		dt_node_t *o = call->args;
		dt_node_t *save = o->list;
		o->list = NULL;
		struct dt_stmt_act *s = dt_act_add(al, DTRACEACT_LIBACT, dt_expr_difo(pcb, o, "action"));
		s->arg = DT_ACT_SETOPT;
		o->list = save;
		/*
		 * No value: an integer 0 built directly (not assembled, so -S does
		 * not list it, as DTrace's dt_action_difconst), which the consumer
		 * reads as "1" (set).
		 */
		s = dt_act_add(al, DTRACEACT_LIBACT,
			       save != NULL ? dt_expr_difo(pcb, save, "action") : dt_difo_const(pcb, 0));
		s->arg = DT_ACT_SETOPT;
		break;
	}
	default:
		dnerror(pcb, call, D_UNKNOWN, "%s( ) is not supported by this compiler yet", idp->name);
	}
}

/* Does an action change the system (copyout(), stop(), raise(), system(), ...)? */
static bool
dt_act_destructive(const struct dt_stmt_act *a)
{
	if (DTRACEACT_ISDESTRUCTIVE(a->kind))
		return true;
	if (a->kind != DTRACEACT_DIFEXPR || a->difo == NULL)
		return false;
	for (uint32_t i = 0; i < a->difo->len; i++) {
		dif_instr_t in = a->difo->buf[i];
		if (DIF_INSTR_OP(in) == DIF_OP_CALL &&
		    (DIF_INSTR_SUBR(in) == DIF_SUBR_COPYOUT || DIF_INSTR_SUBR(in) == DIF_SUBR_COPYOUTSTR))
			return true;
	}
	return false;
}

/*
 * After each statement, the clause's actions so far must be in an order
 * DTrace accepts (its dt_stmt_append()): speculate() first and once, no
 * data before commit(), nothing recorded, aggregated or destructive after
 * commit() or speculate() as the rules say.  Errors name the statement.
 */
static void
dt_stmt_order(dt_pcb_t *pcb, dt_actlist_t *al, dt_node_t *stmt)
{
	bool commit = false, spec = false, datarec = false;

	for (int i = 0; i < al->n; i++) {
		const struct dt_stmt_act *a = &al->a[i];
		uint16_t k = a->kind;

		if (k == DTRACEACT_COMMIT) {
			if (commit)
				dnerror(pcb, stmt, D_COMM_COMM, "commit( ) may not follow commit( )");
			if (datarec)
				dnerror(pcb, stmt, D_COMM_DREC, "commit( ) may not follow data-recording action(s)");
			for (int t = i; t < al->n; t++)
				if (DTRACEACT_ISAGG(al->a[t].kind))
					dnerror(pcb, stmt, D_AGG_COMM, "aggregating actions may not follow commit( )");
			commit = true;
			continue;
		}
		if (k == DTRACEACT_SPECULATE) {
			if (spec)
				dnerror(pcb, stmt, D_SPEC_SPEC, "speculate( ) may not follow speculate( )");
			if (commit)
				dnerror(pcb, stmt, D_SPEC_COMM, "speculate( ) may not follow commit( )");
			if (datarec)
				dnerror(pcb, stmt, D_SPEC_DREC, "speculate( ) may not follow data-recording action(s)");
			spec = true;
			continue;
		}
		if (DTRACEACT_ISAGG(k)) {
			if (spec)
				dnerror(pcb, stmt, D_AGG_SPEC, "aggregating actions may not follow speculate( )");
			datarec = true;
			continue;
		}
		bool destr = dt_act_destructive(a);
		if (spec) {
			if (destr)
				dnerror(pcb, stmt, D_ACT_SPEC, "destructive actions may not follow speculate( )");
			if (k == DTRACEACT_EXIT)
				dnerror(pcb, stmt, D_EXIT_SPEC, "exit( ) may not follow speculate( )");
		}
		if (destr || k == DTRACEACT_DISCARD)
			continue;
		/* a statement run for its effect records nothing */
		if (k == DTRACEACT_DIFEXPR && a->difo != NULL && a->difo->rtype.dtdt_kind == DIF_TYPE_CTF &&
		    a->difo->rtype.dtdt_size == 0)
			continue;
		if (commit)
			dnerror(pcb, stmt, D_DREC_COMM, "data-recording actions may not follow commit( )");
		if (!spec)
			datarec = true;
	}
}

static void
dt_compile_stmt(dt_pcb_t *pcb, dt_actlist_t *al, dt_node_t *s)
{
	dt_node_t *e = s->left;

	al->stmt++;
	if (e->kind == DT_NODE_AGG) {
		dt_compile_agg(pcb, al, e);
		dt_stmt_order(pcb, al, s);
		return;
	}
	if (dt_node_is_actfunc(e)) {
		dt_compile_action(pcb, al, e);
		dt_stmt_order(pcb, al, s);
		return;
	}
	/*
	 * A plain expression runs for its effect and records nothing; an
	 * aggregating function called on its own is refused by the code
	 * generator (D_CG_EXPR), as in any other expression.
	 */
	dt_difo_t *dp = dt_expr_difo(pcb, e, "action");
	memset(&dp->rtype, 0, sizeof(dp->rtype));
	dp->rtype.dtdt_kind = DIF_TYPE_CTF;
	dp->rtype.dtdt_ckind = 1;
	dt_act_add(al, DTRACEACT_DIFEXPR, dp);
	dt_stmt_order(pcb, al, s);
}

/* DTrace asks a probe for at most this many argument descriptions (_dtrace_argmax). */
#define DT_ARGS_MAX 32

/* An empty field or a glob pattern does not name one thing. */
static bool
dt_field_isglob(const char *s)
{
	return s[0] == '\0' || strpbrk(s, "*?[\\") != NULL;
}

/*
 * Whether a description matching several probes may still type args[]: as
 * DTrace's dt_probe_info, only when the first probe's provider promises
 * Evolving argument data and every field it names at least Evolving is
 * spelled out, so that all the probes matched share one signature.
 */
static bool
dt_desc_stable(dt_pcb_t *pcb, const dtrace_probedesc_t *pd, const dtrace_probedesc_t *first)
{
	dtrace_pattr_t pa;

	if (pcb->opts->ops.provider_attr == NULL || dt_provider_pattr(pcb, first->dtpd_provider, &pa) != 0)
		return false;
	if (pa.dtpa_args.dtat_data < DTRACE_STABILITY_EVOLVING)
		return false;
	if (pa.dtpa_mod.dtat_name >= DTRACE_STABILITY_EVOLVING && dt_field_isglob(pd->dtpd_mod))
		return false;
	if (pa.dtpa_func.dtat_name >= DTRACE_STABILITY_EVOLVING && dt_field_isglob(pd->dtpd_func))
		return false;
	if (pa.dtpa_name.dtat_name >= DTRACE_STABILITY_EVOLVING && dt_field_isglob(pd->dtpd_name))
		return false;
	return true;
}

/*
 * The stability of a clause's probe context, as DTrace's dt_setcontext()
 * sets it from dt_probe_info(): the description's attributes are the least
 * of its provider's for the parts it names (none for an empty or glob part),
 * Unstable/Unstable/Common when it names no one provider; probeprov,
 * probemod, probefunc, probename and args[] take the provider's attributes
 * for their part.  A description standing for no one probe (it matched
 * none, or several that need not share a signature) or whose provider is
 * unknown has Unstable everything (_dtrace_prvdesc).
 */
static void
dt_set_context_attr(dt_pcb_t *pcb, const dtrace_probedesc_t *pd, const dtrace_probedesc_t *first)
{
	static const char *const names[] = {"probeprov", "probemod", "probefunc", "probename",
	                                    "args"};
	const dtrace_pattr_t *pap = &dt_attr_prvdesc, *dp;
	dtrace_pattr_t pa;

	if (first != NULL && dt_provider_pattr(pcb, first->dtpd_provider, &pa) == 0)
		pap = &pa;
	if (pap == &dt_attr_prvdesc) {
		pcb->ctx_attr = dt_attr_prvdesc.dtpa_provider;
	} else {
		dp = dt_field_isglob(pd->dtpd_provider) ? &dt_attr_prvdesc : pap;
		pcb->ctx_attr = dp->dtpa_provider;
		if (!dt_field_isglob(pd->dtpd_mod))
			pcb->ctx_attr = dt_attr_min(pcb->ctx_attr, dp->dtpa_mod);
		if (!dt_field_isglob(pd->dtpd_func))
			pcb->ctx_attr = dt_attr_min(pcb->ctx_attr, dp->dtpa_func);
		if (!dt_field_isglob(pd->dtpd_name))
			pcb->ctx_attr = dt_attr_min(pcb->ctx_attr, dp->dtpa_name);
	}
	const dtrace_attribute_t *parts[] = {&pap->dtpa_provider, &pap->dtpa_mod, &pap->dtpa_func,
	                                     &pap->dtpa_name, &pap->dtpa_args};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		dt_ident_t *idp = dt_builtin_lookup(pcb, names[i]);
		if (idp != NULL && (idp->flags & DT_IDFLG_BUILTIN))
			idp->attr = *parts[i];
	}
}

/*
 * The probe context of one description: the argument descriptions of the
 * probe that stands for it, as DTrace discovers them when it sets a
 * clause's context.  No probe stands for a description that matched
 * nothing (-Z), several probes not sharing a signature, or a probe the host
 * cannot describe; args[] then fails with D_ARGS_MULTI.  Without a host to
 * ask (NULL probe_arg) args[] stays untyped.
 */
static void
dt_set_context(dt_pcb_t *pcb, int desc)
{
	const dt_cops_t *ops = &pcb->opts->ops;
	const dt_cdesc_t *d = &pcb->prog->descs[desc];
	const dtrace_probedesc_t *first = &pcb->descfirst[desc];
	dtrace_argdesc_t *args;
	int n;

	pcb->ctx_pdbuf = d->pd;
	pcb->ctx_pd = &pcb->ctx_pdbuf;
	pcb->ctx_argc = -1;
	pcb->ctx_args = NULL;
	pcb->ctx_unstable = false;
	if (d->matched == 0 || (d->matched > 1 && !dt_desc_stable(pcb, &d->pd, first))) {
		pcb->ctx_unstable = true;
		dt_set_context_attr(pcb, &d->pd, NULL);
		return;
	}
	dt_set_context_attr(pcb, &d->pd, first);
	if (ops->probe_arg == NULL)
		return;
	args = dt_zalloc(pcb, sizeof(dtrace_argdesc_t) * DT_ARGS_MAX);
	for (n = 0; n < DT_ARGS_MAX; n++) {
		dtrace_argdesc_t *a = &args[n];

		a->dtargd_id = first->dtpd_id;
		a->dtargd_ndx = n;
		if (ops->probe_arg(ops->arg, a) != 0) {
			pcb->ctx_unstable = true;
			return;
		}
		if (a->dtargd_ndx == DTRACE_ARGNONE)
			break;
	}
	pcb->ctx_argc = n;
	pcb->ctx_args = args;
}

/* A description as DTrace's dtrace_desc2str() writes it: by id when it has one. */
static void
dt_desc_str(const dtrace_probedesc_t *pd, char *buf, size_t len)
{
	if (pd->dtpd_id != DTRACE_IDNONE)
		(void)snprintf(buf, len, "%u", (unsigned)pd->dtpd_id);
	else
		(void)snprintf(buf, len, "%s:%s:%s:%s", pd->dtpd_provider, pd->dtpd_mod,
		               pd->dtpd_func, pd->dtpd_name);
}

/*
 * C's integer type names in any order and spelling ("long unsigned int",
 * "signed") reduced to the one D knows, or NULL when `words' is something
 * else.
 */
static const char *
dt_int_typename(const char *words)
{
	static const char *const names[2][4] = {
	    {"char", "short", "int", "long"},
	    {"unsigned char", "unsigned short", "unsigned int", "unsigned long"},
	};
	char buf[DTRACE_ARGTYPELEN], *w, *save = NULL;
	int uns = 0, sgn = 0, chr = 0, shrt = 0, lng = 0;

	(void)snprintf(buf, sizeof(buf), "%s", words);
	for (w = strtok_r(buf, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save)) {
		if (strcmp(w, "unsigned") == 0)
			uns++;
		else if (strcmp(w, "signed") == 0)
			sgn++;
		else if (strcmp(w, "char") == 0)
			chr++;
		else if (strcmp(w, "short") == 0)
			shrt++;
		else if (strcmp(w, "long") == 0)
			lng++;
		else if (strcmp(w, "int") != 0)
			return NULL;
	}
	if (uns + sgn > 1 || chr + shrt + (lng > 0) > 1 || lng > 2)
		return NULL;
	if (chr)
		return uns ? names[1][0] : sgn ? "signed char" : names[0][0];
	if (lng == 2)
		return uns ? "unsigned long long" : "long long";
	return names[uns][shrt ? 1 : lng ? 3 : 2];
}

/*
 * A probe argument's type name (dtargd_native, dtargd_xlate) as a D type:
 * qualifiers, a struct/union/enum tag or a type name, then pointers.  NULL
 * when D knows no such type, as DTrace's dtrace_type_strcompile() fails.
 */
static dt_type_t *
dt_args_typename(dt_pcb_t *pcb, const char *s)
{
	char base[DTRACE_ARGTYPELEN] = "";
	size_t bl = 0;
	int stars = 0;
	dt_tkind_t tag = DT_TK_VOID; /* none */
	dt_type_t *t;

	while (*s != '\0') {
		const char *w = s;
		size_t wl;

		if (*s == ' ' || *s == '\t') {
			s++;
			continue;
		}
		if (*s == '*') {
			stars++;
			s++;
			continue;
		}
		while (*s == '_' || *s == '`' || (*s >= '0' && *s <= '9') ||
		       (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))
			s++;
		if ((wl = (size_t)(s - w)) == 0)
			return NULL; /* arrays, functions: not an argument type */
		if ((wl == 5 && strncmp(w, "const", 5) == 0) ||
		    (wl == 8 && strncmp(w, "volatile", 8) == 0) ||
		    (wl == 8 && strncmp(w, "restrict", 8) == 0))
			continue;
		if (stars > 0)
			return NULL;
		if (bl == 0 && tag == DT_TK_VOID && wl == 6 && strncmp(w, "struct", 6) == 0) {
			tag = DT_TK_STRUCT;
			continue;
		}
		if (bl == 0 && tag == DT_TK_VOID && wl == 5 && strncmp(w, "union", 5) == 0) {
			tag = DT_TK_UNION;
			continue;
		}
		if (bl == 0 && tag == DT_TK_VOID && wl == 4 && strncmp(w, "enum", 4) == 0) {
			tag = DT_TK_ENUM;
			continue;
		}
		if (bl + wl + 2 > sizeof(base) || (tag != DT_TK_VOID && bl > 0))
			return NULL;
		if (bl > 0)
			base[bl++] = ' ';
		memcpy(base + bl, w, wl);
		base[bl += wl] = '\0';
	}
	if (bl == 0)
		return NULL;
	if (tag != DT_TK_VOID) {
		t = dt_type_tag(pcb, tag, base);
		if (t == NULL && pcb->args_fwd) {
			/* DTrace's dt_decl_type() adds a forward tag for one it lacks */
			t = dt_type_new(pcb, DT_TK_FWD, dt_strdup(pcb, base), 0);
			t->fwdkind = tag;
			dt_type_tag_add(pcb, t);
		}
	} else if ((t = dt_type_lookup(pcb, base)) == NULL) {
		const char *in = dt_int_typename(base);
		t = in != NULL ? dt_type_lookup(pcb, in) : NULL;
	}
	while (t != NULL && stars-- > 0)
		t = dt_type_ptr(pcb, t);
	return t;
}

/*
 * dtrace -lv's "Argument Types" (DTrace's dt_probe_info): the types
 * dt_probe_discover() gave the probe's arguments, named as ctf_type_name()
 * names them: the native type when it resolves and there is no other
 * translated type, else the translated type; neither resolving, no name
 * (dtrace(1) prints "(unknown)").  An unknown struct, union or enum tag
 * resolves, to a new forward declaration, as dtrace_type_strcompile()
 * makes one (args[] does not do this).  A type declared userland (a leading
 * "userland", DT_DA_USER, so DTT_FL_USER) is named with "userland " first,
 * as print_probe_info() prints it.
 */
static dt_type_t *
dt_args_lvtype(dt_pcb_t *pcb, const char *s, bool *user)
{
	*user = false;
	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, "userland", 8) == 0 && (s[8] == ' ' || s[8] == '\t')) {
		*user = true;
		s += 8;
	}
	return dt_args_typename(pcb, s);
}

void
dt_args_names(dt_pcb_t *pcb)
{
	const dt_copts_t *opts = pcb->opts;

	pcb->args_fwd = true;
	for (int i = 0; i < opts->nargtypes; i++) {
		const dtrace_argdesc_t *a = &opts->argtypes[i];
		char *out = opts->argnames[i];
		size_t n;
		bool user;
		dt_type_t *t = dt_args_lvtype(pcb, a->dtargd_native, &user);

		if (t == NULL || (a->dtargd_xlate[0] != '\0' && strcmp(a->dtargd_xlate, a->dtargd_native) != 0))
			t = dt_args_lvtype(pcb, a->dtargd_xlate, &user);
		out[0] = '\0';
		if (t == NULL)
			continue;
		n = (size_t)snprintf(out, DTRACE_ARGTYPELEN, "%s", user ? "userland " : "");
		if (n < DTRACE_ARGTYPELEN)
			(void)dt_type_name(t, out + n, DTRACE_ARGTYPELEN - n);
	}
}

/*
 * args[idx]: as DTrace's dt_idcook_args over the argument descriptions of
 * the context's probe.  Each argument has a translated type (dtargd_xlate,
 * or the native type when that is empty or the same) and a native type,
 * that of the native argument dtargd_mapping names.  When the native value
 * may be used as the translated type it is, typed so; otherwise a
 * translator must convert it.
 */
dt_ident_t *
dt_args_type(dt_pcb_t *pcb, dt_node_t *n, uint64_t idx, dt_type_t **type, dt_type_t **xlated)
{
	char d[DTRACE_FULLNAMELEN], n1[256], n2[256];
	const dtrace_argdesc_t *a;
	dt_type_t *nt = NULL, *xt;
	dt_node_t nn, xn;
	dt_ident_t *xl;

	*type = *xlated = pcb->t_int64;
	if (pcb->ctx_unstable) {
		dt_desc_str(pcb->ctx_pd, d, sizeof(d));
		dnerror(pcb, n, D_ARGS_MULTI,
		        "args[ ] may not be referenced because probe description %s matches an "
		        "unstable set of probes",
		        d);
	}
	if (pcb->ctx_argc < 0)
		return NULL;
	if (idx >= (uint64_t)pcb->ctx_argc) {
		dt_desc_str(pcb->ctx_pd, d, sizeof(d));
		dnerror(pcb, n, D_ARGS_IDX, "index %lld is out of range for %s args[ ]",
		        (long long)idx, d);
	}
	a = &pcb->ctx_args[idx];

	/* a native argument takes the type of the last description mapping to it that resolves */
	for (int i = 0; i < pcb->ctx_argc; i++) {
		const dtrace_argdesc_t *b = &pcb->ctx_args[i];
		dt_type_t *t;

		if (b->dtargd_mapping == a->dtargd_mapping &&
		    (t = dt_args_typename(pcb, b->dtargd_native)) != NULL)
			nt = t;
	}
	xt = dt_args_typename(pcb, a->dtargd_native);
	if (xt == NULL ||
	    (a->dtargd_xlate[0] != '\0' && strcmp(a->dtargd_xlate, a->dtargd_native) != 0))
		xt = dt_args_typename(pcb, a->dtargd_xlate);
	if (xt == NULL)
		dnerror(pcb, n, D_ARGS_TYPE, "failed to resolve translated type for args[%lld]",
		        (long long)idx);
	if (nt == NULL)
		dnerror(pcb, n, D_ARGS_TYPE, "failed to resolve native type for args[%lld]",
		        (long long)idx);

	*type = nt;
	*xlated = xt;
	memset(&nn, 0, sizeof(nn));
	memset(&xn, 0, sizeof(xn));
	nn.kind = xn.kind = DT_NODE_TYPE;
	nn.type = nt;
	xn.type = xt;
	if (dt_node_is_argcompat(&nn, &xn)) {
		*type = xt;
		return NULL;
	}
	if ((xl = dt_xlator_lookup(pcb, &nn, xt, false)) == NULL)
		dnerror(pcb, n, D_ARGS_XLATOR,
		        "translator for args[%lld] from %s to %s is not defined", (long long)idx,
		        dt_type_name(nt, n1, sizeof(n1)), dt_type_name(xt, n2, sizeof(n2)));
	return xl;
}


/*
 * Match a probe description the first time a clause uses it and record it
 * in prog->descs (with its first matching probe, whose arguments type
 * args[]); return its index.  Sub-clauses of one if/else share descriptions.
 */
static int
dt_desc_match(dt_pcb_t *pcb, dt_node_t *pn, int clause)
{
	const dt_cops_t *ops = &pcb->opts->ops;
	dt_cprog_t *prog = pcb->prog;
	dtrace_probedesc_t pd, first;
	int matched = 1;

	if (pn->desc1 != 0)
		return pn->desc1 - 1;
	pcb->lineno = pn->line;
	dt_pdesc_resolve(pcb, pn, &pd);
	memset(&first, 0, sizeof(first));
	if (ops->probe_match != NULL) {
		matched = ops->probe_match(ops->arg, &pd, &first);
		if (matched < 0)
			matched = 0;
	} else {
		first = pd;
	}
	/* the provider's own reason (DTrace's pid errors), even with -Z */
	if (matched == 0 && ops->probe_why != NULL) {
		char why[256];
		int tag = ops->probe_why(ops->arg, &pd, why, sizeof(why));

		if (tag != 0)
			dt_error(pcb, pn->line, tag, "%s", why);
	}
	/* a probe id names one probe or none: DTrace refuses an unknown id even with -Z */
	if (matched == 0 && pd.dtpd_id != DTRACE_IDNONE)
		dt_error(pcb, pn->line, D_PDESC_INVAL, "invalid probe identifier %u: Unknown probe identifier",
			 (unsigned)pd.dtpd_id);
	if (matched == 0 && !(pcb->cflags & DT_C_ZDEFS))
		dt_error(pcb, pn->line, D_PDESC_ZERO, "probe description %s:%s:%s:%s does not match any probes",
			 pd.dtpd_provider, pd.dtpd_mod, pd.dtpd_func, pd.dtpd_name);

	dt_cdesc_t *d = realloc(prog->descs, (prog->ndescs + 1) * sizeof(*d));
	if (d == NULL)
		dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
	prog->descs = d;
	d[prog->ndescs].pd = pd;
	d[prog->ndescs].text = strdup(pn->string);
	d[prog->ndescs].matched = matched;
	d[prog->ndescs].line = pn->line;
	d[prog->ndescs].clause = clause;
	if (prog->ndescs >= pcb->descfirst_cap) {
		size_t cap = pcb->descfirst_cap ? pcb->descfirst_cap * 2 : 16;
		dtrace_probedesc_t *f = dt_zalloc(pcb, cap * sizeof(*f));
		if (prog->ndescs > 0)
			memcpy(f, pcb->descfirst, prog->ndescs * sizeof(*f));
		pcb->descfirst = f;
		pcb->descfirst_cap = cap;
	}
	pcb->descfirst[prog->ndescs] = first;
	pn->desc1 = (int)++prog->ndescs;
	return pn->desc1 - 1;
}

/* The actions of a clause: their least attributes, from Stable/Stable/Common (dt_node_list_cook). */
static dtrace_attribute_t
dt_cook_stmts(dt_pcb_t *pcb, dt_node_t *stmts)
{
	dtrace_attribute_t attr = dt_attr_def;

	pcb->region = "action list";
	for (dt_node_t *s = stmts; s != NULL; s = s->list) {
		s->left = dt_cook(pcb, s->left, DT_IDFLG_REF);
		dt_node_attr_assign(pcb, s, s->left->attr);
		attr = dt_attr_min(attr, s->attr);
	}
	pcb->region = NULL;
	return attr;
}

/*
 * Type a clause (a private copy) in the current probe context, in DTrace's
 * order: the actions first, then the predicate, so an action may create a
 * variable the predicate reads; but if the actions use a variable only the
 * predicate creates, cook the predicate first and the actions again.
 */
static void
dt_cook_clause(dt_pcb_t *pcb, dt_node_t *c)
{
	jmp_buf outer;
	dt_node_t *pred0 = NULL, *acts0 = NULL;
	volatile bool retry = false;

	/*
	 * DTrace's stability: the clause first takes the probe description's
	 * attributes, so that -x amin refuses an unstable description, then
	 * the least of its actions', then of those and its predicate's.
	 */
	c->kind = DT_NODE_CLAUSE;
	c->line = c->value > 0 ? (int)c->value : pcb->lineno;
	dt_node_attr_assign(pcb, c, pcb->ctx_attr);
	if (c->pred != NULL) {
		pred0 = dt_node_copy_list(pcb, c->pred);
		acts0 = dt_node_copy_list(pcb, c->args);
		memcpy(outer, pcb->jmp, sizeof(jmp_buf));
		if (setjmp(pcb->jmp) != 0) {
			memcpy(pcb->jmp, outer, sizeof(jmp_buf));
			if (pcb->prog->err.tag != D_IDENT_UNDEF && pcb->prog->err.tag != D_VAR_UNDEF)
				longjmp(pcb->jmp, 1);
			memset(&pcb->prog->err, 0, sizeof(pcb->prog->err));
			c->pred = pred0;
			c->args = acts0;
			retry = true;
		}
	}
	if (!retry) {
		dt_node_attr_assign(pcb, c, dt_cook_stmts(pcb, c->args));
		if (c->pred != NULL)
			memcpy(pcb->jmp, outer, sizeof(jmp_buf));
	}
	if (c->pred != NULL) {
		pcb->region = "predicate";
		dt_node_t *p = c->pred = dt_cook(pcb, c->pred, DT_IDFLG_REF);
		dt_node_attr_assign(pcb, c, dt_attr_min(c->attr, p->attr));
		/* DTrace's scalars: integers, enums and pointers (not strings, arrays or floats) */
		dt_type_t *pt = dt_type_resolve(p->type);
		if (pt == NULL || !(pt->kind == DT_TK_INT || pt->kind == DT_TK_ENUM || pt->kind == DT_TK_PTR) ||
		    dt_node_is_actfunc(p) || p->kind == DT_NODE_AGG)
			dt_error(pcb, c->value > 0 ? (int)c->value : p->line, D_PRED_SCALAR,
				 "predicate result must be of scalar type");
		pcb->region = NULL;
	}
	if (retry) /* DTrace then keeps only the actions' attributes */
		dt_node_attr_assign(pcb, c, dt_cook_stmts(pcb, c->args));
}

typedef struct dt_ecbs {
	struct dt_ecb_out *v;
	int n, cap;
} dt_ecbs_t;

/* One ECB: the (sub-)clause typed and compiled for one probe description. */
static void
dt_compile_one(dt_pcb_t *pcb, dt_ecbs_t *out, dt_node_t *sub, int desc, int clause)
{
	dt_cprog_t *prog = pcb->prog;
	dt_node_t *cp = dt_zalloc(pcb, sizeof(*cp));
	dt_actlist_t al;
	dt_difo_t *pred = NULL;

	cp->value = sub->value; /* the clause's last line */
	cp->pred = dt_node_copy_list(pcb, sub->pred);
	cp->args = dt_node_copy_list(pcb, sub->args);
	pcb->lineno = prog->descs[desc].line;
	pcb->in_clause = true;
	dt_set_context(pcb, desc);
	sub->cooked = cp; /* -x tree's pass 3 prints it as it is, even half cooked */
	cp->ctxattr = pcb->ctx_attr;
	dt_cook_clause(pcb, cp);
	dt_treedump_clause(pcb, cp, sub->pdescs);
	/* DTrace's dt_stmt_create(): a clause without actions is one Stable statement */
	dtrace_attribute_t descattr = pcb->ctx_attr, stmtattr = cp->args != NULL ? cp->attr : dt_attr_def;

	if (cp->pred != NULL)
		pred = dt_expr_difo(pcb, cp->pred, "predicate");
	memset(&al, 0, sizeof(al));
	al.pcb = pcb;
	for (dt_node_t *s = cp->args; s != NULL; s = s->list)
		dt_compile_stmt(pcb, &al, s);
	pcb->in_clause = false;

	if (out->n == out->cap) {
		int cap = out->cap ? out->cap * 2 : 8;
		struct dt_ecb_out *ne = dt_zalloc(pcb, (size_t)cap * sizeof(*ne));
		if (out->n > 0)
			memcpy(ne, out->v, (size_t)out->n * sizeof(*ne));
		out->v = ne;
		out->cap = cap;
	}
	struct dt_ecb_out *e = &out->v[out->n++];
	e->pd = prog->descs[desc].pd;
	e->pred = pred;
	e->acts = al.a;
	e->nacts = al.n;
	e->desc = desc;
	e->clause = clause;
	e->descattr = descattr;
	e->stmtattr = stmtattr;
}

void
dt_compile_program(dt_pcb_t *pcb)
{
	dt_ecbs_t ecbs;
	int clause = 0;

	memset(&ecbs, 0, sizeof(ecbs));
	/*
	 * Each clause (after if/else became sub-clauses) is typed and
	 * compiled once per probe description, in that description's probe
	 * context, as DTrace does: args[] may differ between descriptions.
	 */
	/* as DTrace's dt_compile(): every clause through dt_sugar first, then each compiled */
	for (dt_node_t *c = pcb->clauses; c != NULL; c = c->list)
		c->subs = dt_sugar(pcb, c);
	/* then, as its loop, the clauses and providers (dt_cook_provider) in program order */
	for (dt_node_t *d = pcb->root; d != NULL; d = d->list) {
		dt_node_t *c = d->left;
		if (c->kind == DT_NODE_DECL)
			dt_decl_provider_cook(pcb, c);
		if (c->kind != DT_NODE_CLAUSE)
			continue;
		for (dt_node_t *sub = c->subs; sub != NULL; sub = sub->list, clause++) {
			dt_treedump_d(pcb, sub);
			for (dt_node_t *pn = sub->pdescs; pn != NULL; pn = pn->list)
				dt_compile_one(pcb, &ecbs, sub, dt_desc_match(pcb, pn, clause), clause);
		}
	}
	pcb->prog->nclauses = clause;
	dt_dof_build(pcb, ecbs.v, ecbs.n);
}
