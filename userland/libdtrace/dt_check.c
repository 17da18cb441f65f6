/*
 * dt_check.c: typing and semantic checks ("cooking") of D expressions.
 *
 * dt_cook() resolves identifiers (built-ins, inlines, enumerators, user
 * variables of each scope, aggregations), gives every node its type and
 * flags (lvalue, writable, reference), folds integer constants and applies
 * DTrace's rules with DTrace's messages and tags.  A node may be replaced:
 * the caller always stores the returned node.  Variables get their type on
 * first assignment, or int64_t from ++ or --; as in DTrace, reading one
 * nobody assigned or declared is an error (D_IDENT_UNDEF for a global,
 * D_VAR_UNDEF for self->, this-> and associative arrays), and so is a
 * compound assignment to it, which reads it too.  Integer constants fold
 * as DTrace's parser folds them: on their 64-bit values.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dt_grammar.h"
#include "dt_modtypes.h"
#include "dt_parse.h"

bool
dt_node_is_integer(dt_node_t *n)
{
	return dt_type_is_integer(n->type);
}

bool
dt_node_is_scalar(dt_node_t *n)
{
	return dt_type_is_scalar(n->type) && !dt_type_is_string(n->type);
}

bool
dt_node_is_string(dt_node_t *n)
{
	return dt_type_is_string(n->type);
}

/* DTrace's stack, _symaddr and _usymaddr are void typedefs whose values are not void */
bool
dt_node_is_void(dt_node_t *n)
{
	return dt_type_is_void(n->type) && !n->type->isvalue;
}

bool
dt_node_is_dynamic(dt_node_t *n)
{
	dt_type_t *t = dt_type_resolve(n->type);
	return t != NULL && t->kind == DT_TK_DYN;
}

bool
dt_node_is_actfunc(dt_node_t *n)
{
	return n->kind == DT_NODE_FUNC && n->ident != NULL && n->ident->kind == DT_IDENT_ACTFUNC;
}

/* char *, char[] and string can stand for one another (D's "string compatible"). */
static bool
dt_node_is_strcompat(dt_node_t *n)
{
	dt_type_t *t = dt_type_resolve(n->type);
	if (t == NULL)
		return false;
	if (t->kind == DT_TK_STRING)
		return true;
	if ((t->kind == DT_TK_PTR || t->kind == DT_TK_ARRAY) && t->ref != NULL) {
		dt_type_t *r = dt_type_resolve(t->ref);
		return r != NULL && r->kind == DT_TK_INT && r->ischar;
	}
	return false;
}

/* Operands of , and ?: that DTrace calls dynamic: aggregations and <dynamic>-typed values. */
static bool
dt_node_is_dynoperand(dt_node_t *n)
{
	return n->kind == DT_NODE_AGG || dt_node_is_dynamic(n);
}

/*
 * DTrace's lexer turns an identifier naming an enumerator or an inline
 * whose value is an integer constant into that constant, so such a name
 * cannot follow . or ->.
 */
static bool
dt_ident_is_intconst(dt_pcb_t *pcb, const char *name)
{
	dt_ident_t *idp = dt_builtin_lookup(pcb, name);
	if (idp == NULL)
		return false;
	if (idp->kind == DT_IDENT_ENUM)
		return true;
	return idp->kind == DT_IDENT_INLINE && idp->inline_expr != NULL &&
	       idp->inline_expr->kind == DT_NODE_INT;
}

static bool
dt_node_is_pointer(dt_node_t *n)
{
	return dt_type_is_pointer(n->type);
}

static bool
dt_node_is_vfptr(dt_node_t *n)
{
	dt_type_t *t = dt_type_resolve(n->type);
	if (t == NULL || t->kind != DT_TK_PTR)
		return false;
	t = dt_type_resolve(t->ref);
	return t == NULL || t->kind == DT_TK_VOID || t->kind == DT_TK_FUNC;
}

char *
dt_node_type_name(dt_node_t *n, char *buf, size_t len)
{
	if (n->kind == DT_NODE_AGG) {
		snprintf(buf, len, "aggregation");
		return buf;
	}
	/* DTrace names a dynamic node by its identifier's kind: xlate<T *>(e) is DT_IDENT_XLPTR's */
	if (dt_node_is_dynamic(n) && dt_node_xlator(n) != NULL) {
		snprintf(buf, len, "pointer to translated data");
		return buf;
	}
	/* xlate<T>(e) (or *xlate<T *>(e)) is DTrace's DT_IDENT_XLSOU: "translated data" */
	if (dt_node_xlator(n) != NULL) {
		snprintf(buf, len, "translated data");
		return buf;
	}
	/* a variable that took the dynamic type (x = xlate<T *>(e)) is named by its kind too */
	if (dt_node_is_dynamic(n) && n->kind == DT_NODE_VAR && n->ident != NULL) {
		snprintf(buf, len, "%s", dt_idkind_name(n->ident->kind));
		return buf;
	}
	/* a pointer into the process's memory is "userland T *", as DTrace names it */
	if (n->flags & DT_NF_USERLAND) {
		int k = snprintf(buf, len, "userland ");
		size_t used = k > 0 && (size_t)k < len ? (size_t)k : len > 0 ? len - 1 : 0;
		dt_type_name(n->type, buf + used, len - used);
		return buf;
	}
	return dt_type_name(n->type, buf, len);
}

/* ---- stability attributes --------------------------------------------------- */

/*
 * DTrace's _dtrace_defattr, _dtrace_maxattr, _dtrace_symattr, _dtrace_typattr,
 * _dtrace_prvattr and _dtrace_prvdesc (dt_open.c).  Every node starts Stable/Stable/Common,
 * as dt_node_xalloc() makes it.
 */
#define DT_ATTR(n, d, c)                                                                           \
	{                                                                                          \
		DTRACE_STABILITY_##n, DTRACE_STABILITY_##d, DTRACE_CLASS_##c                       \
	}
const dtrace_attribute_t dt_attr_def = DT_ATTR(STABLE, STABLE, COMMON);
const dtrace_attribute_t dt_attr_max = DT_ATTR(STANDARD, STANDARD, COMMON);
const dtrace_attribute_t dt_attr_sym = DT_ATTR(PRIVATE, PRIVATE, UNKNOWN);
const dtrace_attribute_t dt_attr_typ = DT_ATTR(PRIVATE, PRIVATE, UNKNOWN);
const dtrace_attribute_t dt_attr_prv = DT_ATTR(PRIVATE, PRIVATE, UNKNOWN);
const dtrace_pattr_t dt_attr_prvdesc = {
    DT_ATTR(UNSTABLE, UNSTABLE, COMMON), DT_ATTR(UNSTABLE, UNSTABLE, COMMON),
    DT_ATTR(UNSTABLE, UNSTABLE, COMMON), DT_ATTR(UNSTABLE, UNSTABLE, COMMON),
    DT_ATTR(UNSTABLE, UNSTABLE, COMMON),
};

dtrace_attribute_t
dt_attr_min(dtrace_attribute_t a, dtrace_attribute_t b)
{
	dtrace_attribute_t m;

	m.dtat_name = a.dtat_name < b.dtat_name ? a.dtat_name : b.dtat_name;
	m.dtat_data = a.dtat_data < b.dtat_data ? a.dtat_data : b.dtat_data;
	m.dtat_class = a.dtat_class < b.dtat_class ? a.dtat_class : b.dtat_class;
	return m;
}

int
dt_str2attr(const char *s, dtrace_attribute_t *attr)
{
	static const char *const stab[] = DTRACE_STABILITY_NAMES;
	static const char *const cls[] = DTRACE_CLASS_NAMES;
	uint8_t v[3];
	int i = 0;

	if (s == NULL || attr == NULL)
		return -1;
	v[0] = v[1] = DTRACE_STABILITY_MAX;
	v[2] = DTRACE_CLASS_MAX;
	/* fields split at each '/'; an empty field ends the list, as DTrace's dt_getstrattr() */
	while (*s != '\0') {
		const char *e = strchr(s, '/');
		size_t len = e != NULL ? (size_t)(e - s) : strlen(s);
		int j, max = i < 2 ? DTRACE_STABILITY_MAX : DTRACE_CLASS_MAX;

		if (i == 3)
			return -1;
		for (j = 0; j <= max; j++) {
			const char *name = i < 2 ? stab[j] : cls[j];
			if (strlen(name) == len && strncasecmp(name, s, len) == 0)
				break;
		}
		if (j > max)
			return -1;
		v[i++] = (uint8_t)j;
		s += len;
		if (*s == '/')
			s++;
	}
	attr->dtat_name = v[0];
	attr->dtat_data = v[1];
	attr->dtat_class = v[2];
	return 0;
}

/* The kind of an identifier as DTrace's dt_idkind_name() names it in D_ATTR_MIN. */
static const char *
dt_attr_idkind(const dt_ident_t *idp)
{
	switch (idp->kind) {
	case DT_IDENT_INLINE:
		return idp->nkeys > 0 ? "associative array" : "scalar";
	case DT_IDENT_XLATOR:
		return "translated data";
	default:
		return dt_idkind_name(idp->kind);
	}
}

/* A node as DTrace's dt_node_name() describes it. */
static char *
dt_attr_nodename(dt_node_t *n, char *buf, size_t len)
{
	char tn[256];

	switch (n->kind) {
	case DT_NODE_INT:
		snprintf(buf, len, "integer constant 0x%llx", (unsigned long long)n->value);
		break;
	case DT_NODE_STRING: {
		char *e = dt_strchr2esc(n->string, strlen(n->string));
		snprintf(buf, len, "string constant \"%s\"", e != NULL ? e : n->string);
		free(e);
		break;
	}
	case DT_NODE_IDENT:
		snprintf(buf, len, "identifier %s", n->string);
		break;
	case DT_NODE_VAR:
	case DT_NODE_FUNC:
	case DT_NODE_AGG: {
		const dt_ident_t *idp = n->ident;
		bool fn = idp->kind == DT_IDENT_FUNC || idp->kind == DT_IDENT_AGGFUNC ||
		          idp->kind == DT_IDENT_ACTFUNC;
		snprintf(buf, len, "%s %s%s%s", dt_attr_idkind(idp),
		         idp->kind == DT_IDENT_AGG ? "@" : "", idp->name, fn ? "( )" : "");
		break;
	}
	case DT_NODE_TYPE:
		snprintf(buf, len, "type %s", dt_node_type_name(n, tn, sizeof(tn)));
		break;
	case DT_NODE_OP1:
	case DT_NODE_OP2:
	case DT_NODE_OP3:
		snprintf(buf, len, "operator %s", dt_opstr(n->op));
		break;
	case DT_NODE_EXPSTMT:
		if (n->left != NULL)
			return dt_attr_nodename(n->left, buf, len);
		snprintf(buf, len, "statement");
		break;
	case DT_NODE_CLAUSE:
		snprintf(buf, len, "clause");
		break;
	case DT_NODE_MEMBER:
		snprintf(buf, len, "member %s", n->string);
		break;
	default:
		snprintf(buf, len, "node <%u>", (unsigned)n->kind);
		break;
	}
	return buf;
}

void
dt_node_attr_assign(dt_pcb_t *pcb, dt_node_t *n, dtrace_attribute_t attr)
{
	dt_node_attr_assign_named(pcb, n, attr, NULL);
}

void
dt_node_attr_assign_named(dt_pcb_t *pcb, dt_node_t *n, dtrace_attribute_t attr, const char *what)
{
	const dtrace_attribute_t *m = &pcb->amin;

	/* DTrace's dt_attr_cmp(): below the minimum when any one part is */
	if ((pcb->cflags & DT_C_EATTR) &&
	    (attr.dtat_name < m->dtat_name || attr.dtat_data < m->dtat_data ||
	     attr.dtat_class < m->dtat_class)) {
		static const char *const stab[] = DTRACE_STABILITY_NAMES;
		static const char *const cls[] = DTRACE_CLASS_NAMES;
		char name[1024];

		dnerror(pcb, n, D_ATTR_MIN,
		        "attributes for %s (%s/%s/%s) are less than predefined minimum",
		        what != NULL ? what : dt_attr_nodename(n, name, sizeof(name)),
		        stab[attr.dtat_name], stab[attr.dtat_data], cls[attr.dtat_class]);
	}
	n->attr = attr;
}

static bool
dt_node_is_ptrcompat(dt_node_t *l, dt_node_t *r)
{
	dt_type_t *lt = dt_type_resolve(l->type), *rt = dt_type_resolve(r->type);
	/* an integer constant 0 is a null pointer (strings are char arrays to DTrace) */
	if (lt != NULL && (lt->kind == DT_TK_PTR || lt->kind == DT_TK_ARRAY || lt->kind == DT_TK_STRING) &&
	    r->kind == DT_NODE_INT && r->value == 0)
		return true;
	if (rt != NULL && (rt->kind == DT_TK_PTR || rt->kind == DT_TK_ARRAY || rt->kind == DT_TK_STRING) &&
	    l->kind == DT_NODE_INT && l->value == 0)
		return true;
	/* a string is a char array here, as D's string type is to DTrace */
	bool ls = dt_node_is_string(l), rs = dt_node_is_string(r);
	if ((!dt_node_is_pointer(l) && !ls) || (!dt_node_is_pointer(r) && !rs))
		return false;
	/* a userland pointer and a kernel one do not mix (a 0 constant was taken above) */
	if ((l->flags ^ r->flags) & DT_NF_USERLAND)
		return false;
	if (ls && rs)
		return true;
	dt_type_t *lr = ls ? NULL : dt_type_resolve(lt->ref);
	dt_type_t *rr = rs ? NULL : dt_type_resolve(rt->ref);
	if (ls || rs) {
		/* the other side points at void or at char */
		dt_type_t *o = ls ? rr : lr;
		return o != NULL && (o->kind == DT_TK_VOID ||
				     (o->kind == DT_TK_INT && o->ischar && o->issigned && o->size == 1));
	}
	if (lr == NULL || rr == NULL)
		return false;
	if (lr->kind == DT_TK_VOID || rr->kind == DT_TK_VOID)
		return true;
	return dt_type_compat(lr, rr);
}

/* May a value of r's type be assigned to (or passed as) l's type? */
bool
dt_node_is_argcompat(dt_node_t *l, dt_node_t *r)
{
	if (dt_node_is_integer(l) && dt_node_is_integer(r))
		return true;
	if (dt_node_is_strcompat(l) && dt_node_is_strcompat(r) &&
	    (dt_node_is_string(l) || dt_node_is_string(r)))
		return true;
	/* a stack, _symaddr or _usymaddr value goes only where its own type does */
	if ((l->type != NULL && l->type->isvalue) || (r->type != NULL && r->type->isvalue))
		return l->type == r->type;
	/*
	 * A dynamic type (a translated pointer) is compatible with nothing,
	 * not even itself: DTrace's dt_node_is_argcompat() compares CTF types
	 * only for functions, structs and unions and otherwise asks
	 * dt_node_is_ptrcompat(), which fails on a dynamic operand.
	 */
	if (dt_node_is_dynamic(l) || dt_node_is_dynamic(r))
		return false;
	/* so is translated data (xlate<T>(e)), which DTrace gives the dynamic type too */
	if (dt_node_xlator(l) != NULL || dt_node_xlator(r) != NULL)
		return false;
	/*
	 * DTrace compares the types themselves only for functions, structs and
	 * unions; anything else must be pointer-compatible, and a userland
	 * pointer is not compatible with a kernel one of the same type.
	 */
	dt_type_t *lt = dt_type_resolve(l->type);
	if (((l->flags ^ r->flags) & DT_NF_USERLAND) && !dt_node_is_integer(l) && !dt_node_is_integer(r) &&
	    (lt == NULL || (lt->kind != DT_TK_STRUCT && lt->kind != DT_TK_UNION && lt->kind != DT_TK_FUNC)))
		return false;
	if (dt_type_compat(l->type, r->type))
		return true;
	return dt_node_is_ptrcompat(l, r);
}

/* ---- translators --------------------------------------------------------------- */

static void dt_node_type_assign(dt_node_t *n, dt_type_t *t);

dt_node_t *
dt_xlator_member(dt_ident_t *xl, const char *name)
{
	for (dt_node_t *m = xl->inline_expr; m != NULL; m = m->list) {
		if (strcmp(m->string, name) == 0)
			return m;
	}
	return NULL;
}

dt_ident_t *
dt_node_xlator(dt_node_t *n)
{
	if (n->ident == NULL || n->ident->kind != DT_IDENT_XLATOR)
		return NULL;
	if ((n->kind == DT_NODE_OP2 && n->op == DT_TOK_XLATE) ||
	    (n->kind == DT_NODE_OP1 && n->op == DT_TOK_DEREF))
		return n->ident;
	return NULL;
}

/*
 * DTrace's three passes: a translator from src's exact type, then from its
 * type with typedefs resolved, then from any type src could be passed as;
 * each to the struct or union `to' names (through one pointer).
 */
dt_ident_t *
dt_xlator_lookup(dt_pcb_t *pcb, dt_node_t *src, dt_type_t *to, bool exact)
{
	dt_type_t *dst = dt_type_resolve(to);
	dt_ident_t *xl;

	(void)pcb;
	if (dst == NULL || src->type == NULL)
		return NULL;
	if (dst->kind == DT_TK_PTR)
		dst = dt_type_resolve(dst->ref);
	if (dst == NULL || (dst->kind != DT_TK_STRUCT && dst->kind != DT_TK_UNION))
		return NULL;
	for (xl = pcb->xlators; xl != NULL; xl = xl->next) {
		if (xl->keys[0] == src->type && dt_type_compat(dt_type_resolve(xl->type), dst))
			return xl;
	}
	if (exact)
		return NULL;
	for (xl = pcb->xlators; xl != NULL; xl = xl->next) {
		if (dt_type_compat(xl->keys[0], src->type) && dt_type_compat(dt_type_resolve(xl->type), dst))
			return xl;
	}
	for (xl = pcb->xlators; xl != NULL; xl = xl->next) {
		dt_node_t xn;
		memset(&xn, 0, sizeof(xn));
		xn.kind = DT_NODE_TYPE;
		dt_node_type_assign(&xn, xl->keys[0]);
		if (dt_type_compat(dt_type_resolve(xl->type), dst) && dt_node_is_argcompat(&xn, src))
			return xl;
	}
	return NULL;
}

void
dt_xlator_cook(dt_pcb_t *pcb, dt_ident_t *xl)
{
	char n1[256], n2[256];
	dt_type_t *sou = dt_type_resolve(xl->type);
	dt_ident_t *saved = pcb->xlarg;
	/* DTrace's dt_cook_xlator(): a translation is as stable as its least member */
	dtrace_attribute_t attr = dt_attr_max;

	pcb->xlarg = xl->xlarg;
	for (dt_node_t *m = xl->inline_expr; m != NULL; m = m->list) {
		dt_member_t *sm = dt_type_member(sou, m->string);
		if (sm == NULL)
			dt_error(pcb, 0, D_XLATE_MEMB, "translator member %s is not a member of %s", m->string,
				 dt_type_name(xl->type, n1, sizeof(n1)));
		m->left = dt_cook(pcb, m->left, DT_IDFLG_REF);
		dt_node_attr_assign(pcb, m, m->left->attr);
		attr = dt_attr_min(attr, m->attr);
		dt_node_type_assign(m, sm->type);
		if (!dt_node_is_argcompat(m, m->left))
			dt_error(pcb, 0, D_XLATE_INCOMPAT,
				 "translator member %s definition uses incompatible types: \"%s\" = \"%s\"",
				 m->string, dt_node_type_name(m, n1, sizeof(n1)),
				 dt_node_type_name(m->left, n2, sizeof(n2)));
	}
	pcb->xlarg = saved;
	xl->attr = attr;
}

int64_t
dt_node_const(dt_pcb_t *pcb, dt_node_t *n, dt_errtag_t tag, const char *what)
{
	if (n->kind != DT_NODE_INT)
		dnerror(pcb, n, tag, "%s", what);
	return (int64_t)n->value;
}

static void
dt_node_type_assign(dt_node_t *n, dt_type_t *t)
{
	dt_type_t *r = dt_type_resolve(t);
	n->type = t;
	n->flags &= ~(DT_NF_SIGNED | DT_NF_REF);
	if (r == NULL)
		return;
	if (r->kind == DT_TK_INT && r->issigned)
		n->flags |= DT_NF_SIGNED;
	if (r->kind == DT_TK_ENUM)
		n->flags |= DT_NF_SIGNED;
	if (r->kind == DT_TK_STRING || r->kind == DT_TK_STRUCT || r->kind == DT_TK_UNION ||
	    r->kind == DT_TK_ARRAY)
		n->flags |= DT_NF_REF;
}

/* The member a . or -> node reads, when it is a bit-field (of any width). */
dt_member_t *
dt_node_field(const dt_node_t *n)
{
	if (n->kind != DT_NODE_OP2 || (n->op != DT_TOK_PTR && n->op != DT_TOK_DOT) || n->member == NULL)
		return NULL;
	return n->member->bits > 0 ? n->member : NULL;
}

/*
 * The bit-field whose type a value has: a . or -> reading one, or an
 * assignment, ++ or -- to one (DTrace's parser gives those their left
 * operand's type).
 */
const dt_member_t *
dt_value_field(const dt_node_t *n)
{
	if (n == NULL)
		return NULL;
	if (n->left != NULL &&
	    ((n->kind == DT_NODE_OP2 && (n->op == DT_TOK_ASGN || n->op == DT_TOK_ADD_EQ ||
					 n->op == DT_TOK_SUB_EQ || n->op == DT_TOK_MUL_EQ ||
					 n->op == DT_TOK_DIV_EQ || n->op == DT_TOK_MOD_EQ ||
					 n->op == DT_TOK_AND_EQ || n->op == DT_TOK_XOR_EQ ||
					 n->op == DT_TOK_OR_EQ || n->op == DT_TOK_LSH_EQ ||
					 n->op == DT_TOK_RSH_EQ)) ||
	     (n->kind == DT_NODE_OP1 && (n->op == DT_TOK_PREINC || n->op == DT_TOK_POSTINC ||
					 n->op == DT_TOK_PREDEC || n->op == DT_TOK_POSTDEC))))
		n = n->left;
	return dt_node_field(n);
}

/*
 * An integer operand's rank in DTrace's dt_type_promote: its width in bits
 * (a bit-field's own width), plus one when unsigned; an enum ranks as int.
 * *sg says whether it is signed.
 */
uint64_t
dt_node_rank(const dt_node_t *n, bool *sg)
{
	dt_type_t *t = dt_type_resolve(n->type);
	const dt_member_t *f = dt_value_field(n);

	if (t->kind == DT_TK_ENUM) {
		*sg = true;
		return 32;
	}
	*sg = t->issigned;
	return (f != NULL ? (uint64_t)f->bits : t->size * 8) + (t->issigned ? 0 : 1);
}

/*
 * The type of an integer result as DTrace's dt_type_promote chooses it: not
 * C's conversions (nothing becomes int first, (char)a + (char)b is a char)
 * but the type of the operand of higher rank, typedef and all.  Of equal
 * ranks DTrace takes the type created later in its container, which among
 * D's base types puts long long after long; else the left operand's.
 */
static dt_type_t *
dt_type_promote(dt_pcb_t *pcb, dt_node_t *l, dt_node_t *r)
{
	/* an enum promotes as int */
	dt_type_t *lt = dt_type_resolve(l->type)->kind == DT_TK_ENUM ? pcb->t_int : l->type;
	dt_type_t *rt = dt_type_resolve(r->type)->kind == DT_TK_ENUM ? pcb->t_int : r->type;
	bool sg;
	uint64_t lr = dt_node_rank(l, &sg), rr = dt_node_rank(r, &sg);
	const char *rn;

	if (lr != rr)
		return lr > rr ? lt : rt;
	rn = dt_type_resolve(rt)->name;
	if (dt_type_resolve(lt) != dt_type_resolve(rt) && rn != NULL && strstr(rn, "long long") != NULL)
		return rt;
	return lt;
}

/* A comparison of two constants is signed when their common type is (-1L < 1U is true). */
static bool
dt_fold_signed(dt_pcb_t *pcb, dt_node_t *l, dt_node_t *r)
{
	dt_type_t *t = dt_type_resolve(dt_type_promote(pcb, l, r));
	return t != NULL && t->issigned;
}

/*
 * An integer constant converted to type `to' as DTrace's dt_cast does it
 * on the 64-bit value: narrowing keeps the low bytes and zero-fills above
 * them ((char)0x1ff is 0xff, not -1); widening sign-extends to the new size
 * only a signed source ((short)(char)-1 is 0xffff, (long long)(char)-1 is
 * -1); a cast to the same size changes nothing but the type.
 */
static uint64_t
dt_cast_const(dt_node_t *c, dt_type_t *to)
{
	dt_type_t *st = dt_type_resolve(c->type), *dt = dt_type_resolve(to);
	uint64_t v = c->value;

	if (st == NULL || dt == NULL || st->size == 0 || dt->size == 0 || st->size > 8 || dt->size > 8)
		return v;
	if (dt->size < st->size) {
		unsigned n = (unsigned)(8 - dt->size) * 8;
		v = (v << n) >> n;
	} else if (dt->size > st->size) {
		unsigned n = (unsigned)(8 - st->size) * 8, s = (unsigned)(dt->size - st->size) * 8;
		v <<= n;
		if (c->flags & DT_NF_SIGNED)
			v = (uint64_t)((int64_t)v >> s) >> (n - s);
		else
			v >>= n;
	}
	return v;
}

static dt_node_t *
dt_fold2(dt_pcb_t *pcb, dt_node_t *n)
{
	dt_node_t *l = n->left, *r = n->right;
	uint64_t a = l->value, b = r->value, v;
	bool s = (n->flags & DT_NF_SIGNED) != 0;

	switch (n->op) {
	case DT_TOK_ADD: v = a + b; break;
	case DT_TOK_SUB: v = a - b; break;
	case DT_TOK_MUL: v = a * b; break;
	case DT_TOK_DIV:
	case DT_TOK_MOD:
		if (b == 0)
			dnerror(pcb, n, D_DIV_ZERO, "expression contains division by zero");
		if (s && (int64_t)b == -1)
			v = n->op == DT_TOK_DIV ? (uint64_t) - (int64_t)a : 0;
		else if (s)
			v = n->op == DT_TOK_DIV ? (uint64_t)((int64_t)a / (int64_t)b)
			                        : (uint64_t)((int64_t)a % (int64_t)b);
		else
			v = n->op == DT_TOK_DIV ? a / b : a % b;
		break;
	case DT_TOK_BAND: v = a & b; break;
	case DT_TOK_BOR: v = a | b; break;
	case DT_TOK_XOR: v = a ^ b; break;
	case DT_TOK_LSH: v = b >= 64 ? 0 : a << b; break;
	case DT_TOK_RSH:
		/* DTrace shifts the constant's 64-bit value logically, signed or not (-8 >> 1 too) */
		v = b >= 64 ? 0 : a >> b;
		break;
	case DT_TOK_LT: v = dt_fold_signed(pcb, l, r) ? (int64_t)a < (int64_t)b : a < b; break;
	case DT_TOK_LE: v = dt_fold_signed(pcb, l, r) ? (int64_t)a <= (int64_t)b : a <= b; break;
	case DT_TOK_GT: v = dt_fold_signed(pcb, l, r) ? (int64_t)a > (int64_t)b : a > b; break;
	case DT_TOK_GE: v = dt_fold_signed(pcb, l, r) ? (int64_t)a >= (int64_t)b : a >= b; break;
	case DT_TOK_EQU: v = a == b; break;
	case DT_TOK_NEQ: v = a != b; break;
	case DT_TOK_LAND: v = a && b; break;
	case DT_TOK_LOR: v = a || b; break;
	case DT_TOK_LXOR: v = (a != 0) != (b != 0); break;
	default: return n;
	}
	/* the 64-bit result as it is, not narrowed to the type: DTrace's parser folds so */
	dt_node_t *f = dt_node_int(pcb, v);
	f->line = n->line;
	dt_node_type_assign(f, n->type);
	f->flags |= DT_NF_COOKED;
	/* DTrace's parser folds with dt_node_promote(): the operands' minimum */
	dt_node_attr_assign(pcb, f, dt_attr_min(l->attr, r->attr));
	return f;
}

/* Resolve a user variable in a scope, creating it when `create'. */
static dt_ident_t *
dt_var_lookup(dt_pcb_t *pcb, dt_node_t *n, dt_idtab_t *tab, dt_idkind_t kind, bool create,
	      uint32_t scopeflag)
{
	dt_ident_t *idp = dt_idtab_lookup(tab, n->string);
	if (idp == NULL) {
		if (!create)
			return NULL;
		idp = dt_idtab_insert(pcb, tab, n->string, kind, DT_IDFLG_WRITE | scopeflag);
		idp->line = n->line;
	}
	return idp;
}

static dt_node_t *
dt_make_var(dt_pcb_t *pcb, dt_node_t *n, dt_ident_t *idp)
{
	n->kind = DT_NODE_VAR;
	n->ident = idp;
	if (idp->type == NULL) {
		/* unassigned thread-local and clause-local variables read as int64_t 0 */
		dt_node_type_assign(n, pcb->t_int64);
	} else {
		dt_node_type_assign(n, idp->type);
	}
	n->flags |= DT_NF_LVALUE | DT_NF_COOKED;
	if (idp->flags & DT_IDFLG_WRITE)
		n->flags |= DT_NF_WRITABLE;
	/* a variable first assigned a userland pointer holds one (DTrace's DT_IDFLG_USER) */
	if (idp->flags & DT_IDFLG_USER)
		n->flags |= DT_NF_USERLAND;
	/* DTrace's dt_ident_cook(): the identifier's attributes, at most Stable/Stable/Common */
	dt_node_attr_assign(pcb, n, dt_attr_min(dt_attr_def, idp->attr));
	return n;
}

static dt_node_t *dt_cook_ident(dt_pcb_t *pcb, dt_node_t *n, uint32_t idflags, bool create);

/* Cook a list of arguments or keys: their minimum, from Stable/Stable/Common (dt_node_list_cook). */
static dtrace_attribute_t
dt_cook_args(dt_pcb_t *pcb, dt_node_t *n)
{
	dtrace_attribute_t attr = dt_attr_def;
	dt_node_t **pp = &n->args;
	while (*pp != NULL) {
		dt_node_t *next = (*pp)->list;
		(*pp)->list = NULL;
		*pp = dt_cook(pcb, *pp, DT_IDFLG_REF);
		attr = dt_attr_min(attr, (*pp)->attr);
		(*pp)->list = next;
		pp = &(*pp)->list;
	}
	return attr;
}

/* Check call arguments against a built-in prototype string. */
static void
dt_check_proto(dt_pcb_t *pcb, dt_node_t *n, const char *name, const char *proto, const char *open,
	       const char *close)
{
	char buf[256], *p, *save = NULL;
	int argc = dt_node_count(n->args), min = 0, max = 0, i;
	bool varargs = false;
	const char *ptypes[16];
	int np = 0;

	snprintf(buf, sizeof(buf), "%s", proto);
	for (p = strtok_r(buf, ",", &save); p != NULL; p = strtok_r(NULL, ",", &save)) {
		if (strcmp(p, "...") == 0) {
			varargs = true;
			continue;
		}
		if (*p == '?')
			p++;
		else
			min = np + 1;
		if (np < 16)
			ptypes[np++] = p;
	}
	max = np;
	/*
	 * DTrace's wording (dt_idcook_sign): a prototype with optional
	 * parameters expects "at least" its required ones, too many or too
	 * few; one with "..." expects its fixed ones; others all of them.
	 */
	if (argc < min || (argc > max && !varargs)) {
		bool opt = min != max;
		dnerror(pcb, n, D_PROTO_LEN, "%s%s prototype mismatch: %d arg%s passed, %s%d expected",
			name, open, argc, argc == 1 ? "" : "s", opt ? "at least " : "", opt ? min : max);
	}
	(void)close;
	i = 0;
	for (dt_node_t *a = n->args; a != NULL && i < np; a = a->list, i++) {
		const char *pt = ptypes[i];
		char n1[256];
		if (strcmp(pt, "*") == 0)
			continue;
		if (strcmp(pt, "@") == 0)
			continue; /* checked by the action's own rules */
		dt_type_t *t;
		size_t ptlen = strlen(pt);
		if (strcmp(pt, "void *") == 0) {
			t = pcb->t_voidptr;
		} else if (ptlen > 2 && strcmp(pt + ptlen - 2, " *") == 0) {
			char base[64]; /* "char *" and the like: a pointer to a named type */
			snprintf(base, sizeof(base), "%.*s", (int)(ptlen - 2), pt);
			t = dt_type_lookup(pcb, base);
			if (t != NULL)
				t = dt_type_ptr(pcb, t);
		} else {
			t = dt_type_lookup(pcb, pt);
		}
		if (t == NULL)
			continue;
		dt_node_t tmp;
		memset(&tmp, 0, sizeof(tmp));
		tmp.kind = DT_NODE_TYPE;
		dt_node_type_assign(&tmp, t);
		bool ok = dt_node_is_argcompat(&tmp, a);
		if (!ok)
			dnerror(pcb, n, D_PROTO_ARG,
				"%s%s argument #%d is incompatible with prototype:\n\tprototype: %s\n\t argument: %s",
				name, open, i + 1, strcmp(pt, "string") == 0 ? "const char *" : pt, /* DTrace's spelling */
				dt_node_type_name(a, n1, sizeof(n1)));
	}
}

static dt_node_t *
dt_cook_func(dt_pcb_t *pcb, dt_node_t *n)
{
	dt_node_t *f = n->left;
	dt_ident_t *idp;

	if (f->kind != DT_NODE_IDENT)
		dnerror(pcb, n, D_FUNC_IDENT, "function designator is not of function type");
	idp = dt_builtin_lookup(pcb, f->string);
	if (idp == NULL) {
		/* DTrace resolves calls while parsing: only declared globals exist then */
		dt_ident_t *g = dt_idtab_lookup(&pcb->globals, f->string);
		if (g != NULL && (g->flags & DT_IDFLG_DECL))
			dnerror(pcb, n, D_FUNC_IDKIND, "%s '%s' may not be referenced as a function",
				dt_idkind_name(g->kind), f->string);
		dnerror(pcb, n, D_FUNC_UNDEF, "undefined function name: %s", f->string);
	}
	if (idp->kind != DT_IDENT_FUNC && idp->kind != DT_IDENT_ACTFUNC && idp->kind != DT_IDENT_AGGFUNC)
		dnerror(pcb, n, D_FUNC_IDKIND, "%s '%s' may not be referenced as a function",
			dt_idkind_name(idp->kind), f->string);
	n->ident = idp;
	dtrace_attribute_t attr = dt_cook_args(pcb, n);
	/* subroutines, actions and aggregating functions: DTrace checks them all while cooking */
	if (idp->proto != NULL)
		dt_check_proto(pcb, n, idp->name, idp->proto, "( )", "");
	dt_node_type_assign(n, idp->type != NULL ? idp->type : pcb->t_void);
	n->flags |= DT_NF_COOKED;
	dt_node_attr_assign(pcb, n, dt_attr_min(attr, idp->attr));
	return n;
}

/* args[N]: typed from the probe's argument description when there is one. */
static dt_node_t *
dt_cook_args_ref(dt_pcb_t *pcb, dt_node_t *n, dt_ident_t *idp, dt_node_t *key)
{
	char n1[256];
	if (dt_node_count(key) != 1)
		dnerror(pcb, n, D_PROTO_LEN, "%s[ ] prototype mismatch: %d arg%spassed, 1 expected",
			idp->name, dt_node_count(key), dt_node_count(key) == 1 ? " " : "s ");
	if (key->kind != DT_NODE_INT)
		dnerror(pcb, n, D_PROTO_ARG,
			"%s[ ] argument #1 is incompatible with prototype:\n\tprototype: %s\n\t argument: %s",
			idp->name, "integer constant", dt_node_type_name(key, n1, sizeof(n1)));
	n->kind = DT_NODE_VAR;
	n->ident = idp;
	n->args = key;
	n->flags |= DT_NF_COOKED;
	/* DTrace checks the array's name first (dt_xcook_ident), "associative array args" */
	dt_node_attr_assign(pcb, n, idp->attr);
	/* DTrace's dt_ident_cook(): the index's and the array's (args[]: the provider's) */
	dtrace_attribute_t attr = dt_attr_min(dt_attr_min(dt_attr_def, key->attr), idp->attr);
	dt_type_t *t = pcb->t_int64;
	if (idp->id == DIF_VAR_ARGS) {
		if (!pcb->in_clause)
			dnerror(pcb, n, D_ARGS_NONE, "%s[ ] may not be referenced outside of a probe clause",
				idp->name);
		dt_type_t *xt;
		dt_ident_t *xl = dt_args_type(pcb, n, key->value, &t, &xt);
		if (xl != NULL) {
			/* a translated argument reads as xlate<T>(e) of its native value */
			dt_node_t *v = dt_node_new(pcb, DT_NODE_VAR);
			*v = *n;
			v->list = NULL;
			dt_node_type_assign(v, t);
			n->kind = DT_NODE_OP2;
			n->op = DT_TOK_XLATE;
			n->left = dt_node_type(pcb, xt);
			n->right = v;
			n->args = NULL;
			n->ident = xl;
			dt_node_type_assign(n, dt_type_resolve(xt)->kind == DT_TK_PTR ? pcb->t_dyn
			                                                              : xl->type);
			v->attr = attr;
			dt_node_attr_assign(pcb, n, attr);
			return n;
		}
	} else {
		if ((key->flags & DT_NF_SIGNED) && (int64_t)key->value < 0)
			dnerror(pcb, n, D_REGS_IDX, "index %lld is out of range for array %s",
				(long long)key->value, idp->name);
		t = pcb->t_uint64;
	}
	dt_node_type_assign(n, t);
	dt_node_attr_assign(pcb, n, attr);
	return n;
}

static dt_node_t *dt_cook_inline_use(dt_pcb_t *pcb, dt_node_t *n, dt_ident_t *idp, uint32_t idflags,
				     dt_node_t *args);

/*
 * The cooked keys of n against the prototype of idp (an associative array
 * after its first use, or an inline array): their count, then each key as
 * a function argument against its parameter (DTrace's dt_idcook_assc()).
 */
static void
dt_check_keys(dt_pcb_t *pcb, dt_node_t *n, const dt_ident_t *idp)
{
	int nk = dt_node_count(n->args), i = 0;

	if (nk != idp->nkeys)
		dnerror(pcb, n, D_PROTO_LEN, "%s[ ] prototype mismatch: %d key%spassed, %d expected", idp->name, nk,
			nk == 1 ? " " : "s ", idp->nkeys);
	for (dt_node_t *k = n->args; k != NULL; k = k->list, i++) {
		dt_node_t tmp;
		char n1[256], n2[256];
		memset(&tmp, 0, sizeof(tmp));
		tmp.kind = DT_NODE_TYPE; /* not an integer constant 0 */
		dt_node_type_assign(&tmp, idp->keys[i]);
		if (!dt_node_is_argcompat(&tmp, k))
			dnerror(pcb, n, D_PROTO_ARG,
				"%s[ ] key #%d is incompatible with prototype:\n\tprototype: %s\n\t      key: %s",
				idp->name, i + 1, dt_type_name(idp->keys[i], n1, sizeof(n1)),
				dt_node_type_name(k, n2, sizeof(n2)));
	}
}

/* var[keys]: associative arrays (global or self->), built-in arrays, aggregations. */
static dt_node_t *
dt_cook_index(dt_pcb_t *pcb, dt_node_t *n, uint32_t idflags, bool create)
{
	dt_node_t *l = n->left, *keys = n->right;

	/* @a[i][j]: DTrace's D_AGG_MDIM */
	if (l->kind == DT_NODE_OP2 && l->op == DT_TOK_LBRAC && l->left != NULL && l->left->kind == DT_NODE_IDENT &&
	    l->left->op == DT_TOK_AGG)
		dnerror(pcb, n, D_AGG_MDIM, "improper attempt to reference @%s as a multi-dimensional array",
			l->left->string + (l->left->string[0] == '@'));
	if (l->kind == DT_NODE_IDENT && l->op == DT_TOK_AGG) {
		dt_ident_t *idp = dt_var_lookup(pcb, l, &pcb->aggs, DT_IDENT_AGG, true, 0);
		n->kind = DT_NODE_AGG;
		n->ident = idp;
		n->args = keys;
		dt_cook_args(pcb, n);
		n->flags |= DT_NF_COOKED;
		/* DTrace's dt_cook_aggregation() before = f(): the aggregation's own attributes */
		dt_node_attr_assign(pcb, n, idp->attr);
		return n;
	}
	if (l->kind == DT_NODE_IDENT) {
		dt_ident_t *idp = dt_builtin_lookup(pcb, l->string);
		if (idp != NULL && idp->kind == DT_IDENT_INLINE && idp->iparams != NULL &&
		    idp->inline_expr->kind != DT_NODE_INT) {
			/* f[a, b] of inline T f[T1 x, T2 y] = e: the subscripts checked as an array's keys */
			n->args = keys;
			dt_cook_args(pcb, n);
			dt_check_keys(pcb, n, idp);
			l->line = n->line;
			return dt_cook_inline_use(pcb, l, idp, idflags, n->args);
		}
		if (idp != NULL && idp->kind == DT_IDENT_ARRAY) {
			n->args = keys;
			dt_cook_args(pcb, n);
			return dt_cook_args_ref(pcb, n, idp, n->args);
		}
		if (idp == NULL && dt_idtab_lookup(&pcb->globals, l->string) == NULL &&
		    strchr(l->string, '`') != NULL) {
			/* mod`sym[i]: a module's array or pointer (dt_modtypes.c) */
			n->left = dt_modsym_cook(pcb, l, DT_IDFLG_REF);
			goto index;
		}
		if (idp == NULL) {
			idp = dt_idtab_lookup(&pcb->globals, l->string);
			if (idp == NULL && !create)
				dnerror(pcb, n, D_VAR_UNDEF, "%s has not yet been declared or assigned", l->string);
			if (idp == NULL)
				idp = dt_var_lookup(pcb, l, &pcb->globals, DT_IDENT_ARRAY, true, 0);
			if (idp->kind == DT_IDENT_ARRAY || (idp->kind == DT_IDENT_SCALAR && idp->type == NULL)) {
				idp->kind = DT_IDENT_ARRAY;
				goto assoc;
			}
			/* a typed scalar: E1[E2] is *(E1 + E2) */
		}
		/*
		 * An enumerator, or an inline of an integer constant, is that
		 * constant to DTrace's parser (dt_node_ident), and any other
		 * scalar inline a typed value: E1[E2] is *(E1 + E2) for them.
		 */
		if (idp != NULL && (idp->kind == DT_IDENT_ENUM ||
		    (idp->kind == DT_IDENT_INLINE && idp->inline_expr != NULL &&
		     idp->inline_expr->kind == DT_NODE_INT))) {
			n->left = dt_cook(pcb, l, DT_IDFLG_REF);
			goto index;
		}
		if (idp != NULL && idp->kind == DT_IDENT_INLINE)
			goto index;
		if (idp != NULL && idp->kind != DT_IDENT_SCALAR)
			dnerror(pcb, n, D_IDENT_BADREF, "%s '%s' may not be referenced as %s",
				dt_idkind_name(idp->kind), l->string, dt_idkind_name(DT_IDENT_ARRAY));
	}
	if (l->kind == DT_NODE_OP2 && l->op == DT_TOK_PTR && l->left->kind == DT_NODE_IDENT &&
	    (strcmp(l->left->string, "self") == 0 || strcmp(l->left->string, "this") == 0)) {
		bool self = strcmp(l->left->string, "self") == 0;
		dt_idtab_t *tab = self ? &pcb->tls : &pcb->locals;
		dt_ident_t *idp = dt_idtab_lookup(tab, l->right->string);
		/*
		 * Only a variable not yet given a type becomes an array
		 * (DTrace's dt_ident_unref): a typed clause-local, like a
		 * typed self-> variable, is E1[E2], *(E1 + E2), below.
		 */
		if (!self && (idp == NULL || (idp->kind == DT_IDENT_SCALAR && idp->type == NULL)))
			dnerror(pcb, n, D_ARR_LOCAL, "local variables may not be used as associative arrays: %s",
				l->right->string);
		if (idp == NULL) {
			idp = dt_idtab_insert(pcb, tab, l->right->string, DT_IDENT_ARRAY,
					      DT_IDFLG_WRITE | DT_IDFLG_TLS);
		}
		if (idp->kind == DT_IDENT_SCALAR && idp->type == NULL)
			idp->kind = DT_IDENT_ARRAY;
		if (idp->kind == DT_IDENT_ARRAY) {
			l = l->right;
			l->ident = idp;
			goto assoc_id;
		}
	}
	/* pointer or array indexing: *(E1 + E2) */
index: {
		dt_node_t *add = dt_node_op2(pcb, DT_TOK_ADD, n->left,
					     keys->list == NULL ? keys : keys);
		add->line = n->line;
		if (keys->list != NULL) {
			/* a tuple on something that is not an associative array (DTrace's dt_node_name) */
			dt_node_t *b = n->left;
			dt_ident_t *bid = b->kind == DT_NODE_VAR ? b->ident : NULL;
			char nm[512];
			if (bid == NULL && b->kind == DT_NODE_IDENT) {
				bid = dt_builtin_lookup(pcb, b->string);
				if (bid == NULL)
					bid = dt_idtab_lookup(&pcb->globals, b->string);
			}
			if (bid != NULL)
				snprintf(nm, sizeof(nm), "%s %s",
					 dt_idkind_name(bid->kind == DT_IDENT_INLINE ? DT_IDENT_SCALAR : bid->kind),
					 bid->name);
			else if (b->kind == DT_NODE_INT)
				snprintf(nm, sizeof(nm), "integer constant 0x%llx", (unsigned long long)b->value);
			else if (b->kind == DT_NODE_IDENT)
				snprintf(nm, sizeof(nm), "identifier %s", b->string);
			else
				snprintf(nm, sizeof(nm), "operator %s", dt_opstr(b->op));
			dnerror(pcb, n, D_ARR_BADREF, "cannot access %s as an associative array", nm);
		}
		dt_node_t *d = dt_node_op1(pcb, DT_TOK_DEREF, add);
		d->line = n->line;
		return dt_cook(pcb, d, idflags);
	}

assoc: {
	dt_ident_t *idp = dt_idtab_lookup(&pcb->globals, l->string);
	l->ident = idp;
}
assoc_id: {
	dt_ident_t *idp = l->ident;
	n->kind = DT_NODE_VAR;
	n->ident = idp;
	n->args = keys;
	/* DTrace checks the array's name before its keys (dt_xcook_ident) */
	dt_node_attr_assign(pcb, n, idp->attr);
	dtrace_attribute_t kattr = dt_cook_args(pcb, n);
	int nk = dt_node_count(n->args);
	int i = 0;
	if (idp->keys == NULL) {
		/* the first use makes the signature: DTrace refuses void and dynamic keys then */
		for (dt_node_t *k = n->args; k != NULL; k = k->list, i++) {
			char n1[256];
			if (dt_node_is_void(k) || k->kind == DT_NODE_AGG || dt_node_is_dynamic(k) || dt_node_xlator(k) != NULL)
				dnerror(pcb, n, D_KEY_TYPE, "%s expression may not be used as %s index: key #%d",
					dt_node_type_name(k, n1, sizeof(n1)), dt_idkind_name(DT_IDENT_ARRAY), i + 1);
		}
		i = 0;
		idp->keys = dt_zalloc(pcb, sizeof(dt_type_t *) * (size_t)nk);
		idp->nkeys = nk;
		for (dt_node_t *k = n->args; k != NULL; k = k->list)
			idp->keys[i++] = k->type;
	} else {
		dt_check_keys(pcb, n, idp);
	}
	if (idp->type == NULL) {
		dt_node_type_assign(n, pcb->t_int64);
	} else {
		dt_node_type_assign(n, idp->type);
	}
	n->flags |= DT_NF_LVALUE | DT_NF_WRITABLE | DT_NF_COOKED;
	(void)idflags;
	dt_node_attr_assign(pcb, n, dt_attr_min(kattr, idp->attr));
	return n;
}
}

/*
 * The node standing for identifier idp (an inline's expression, an
 * enumerator's value) gets attr, checked against -x amin as DTrace checks
 * the identifier itself (named "scalar NAME", "enumerator NAME").
 */
static void
dt_ident_attr_assign(dt_pcb_t *pcb, const dt_node_t *use, dt_ident_t *idp, dt_node_t *to,
		     dtrace_attribute_t attr)
{
	dt_node_t id;

	memset(&id, 0, sizeof(id));
	id.kind = DT_NODE_VAR;
	id.ident = idp;
	id.line = use->line;
	dt_node_attr_assign(pcb, &id, attr);
	to->attr = attr;
}

/*
 * A use of inline idp at n: a private copy of its expression, converted to
 * the declared type.  args: an inline array's subscripts (cooked), which
 * stand for its parameters in the copy, as DTrace's dt_cg_inline() has
 * each parameter generate its subscript's code where it is used.
 */
static dt_node_t *
dt_cook_inline_use(dt_pcb_t *pcb, dt_node_t *n, dt_ident_t *idp, uint32_t idflags, dt_node_t *args)
{
	dt_decl_inline_use(pcb, n, idp);
	dt_node_t *e;
	if (args != NULL) {
		/* an inline array: its parameters are the subscripts, copied where they are used */
		dt_node_t **argv = dt_zalloc(pcb, sizeof(dt_node_t *) * (size_t)(idp->nkeys + 1));
		int i = 0;
		for (dt_node_t *a = args; a != NULL && i < idp->nkeys; a = a->list)
			argv[i++] = a;
		e = dt_node_copy_subst(pcb, idp->inline_expr, idp->iparams, argv, idp->nkeys);
	} else {
		e = dt_node_copy_list(pcb, idp->inline_expr);
	}
	e->line = n->line;
	/*
	 * A use has the inline's attributes (those of its
	 * expression, or what #pragma D attributes gave it),
	 * but one of an integer constant is that constant to
	 * DTrace's parser: Stable/Stable/Common.
	 */
	dtrace_attribute_t attr = idp->inline_expr->kind == DT_NODE_INT
	                              ? dt_attr_def
	                              : dt_attr_min(dt_attr_def, idp->attr);
	if (e->kind == DT_NODE_OP2 && e->op == DT_TOK_XLATE && dt_node_xlator(e) != NULL) {
		/* a translation, a translated pointer or struct as the inline is declared */
		dt_type_t *it = dt_type_resolve(idp->type);
		e->left->type = idp->type;
		dt_node_type_assign(e, it != NULL && it->kind == DT_TK_PTR ? pcb->t_dyn : e->ident->type);
		e->flags |= DT_NF_COOKED;
		dt_ident_attr_assign(pcb, n, idp, e, attr);
		e->inl = idp;
		return e;
	}
	if (!dt_type_compat(e->type, idp->type)) {
		/* the conversion is the inline's own: no stability of its own to check */
		uint32_t cflags = pcb->cflags;
		dt_node_t *cast = dt_node_op2(pcb, DT_TOK_LPAR, dt_node_type(pcb, idp->type), e);
		cast->line = n->line;
		pcb->cflags &= ~DT_C_EATTR;
		e = dt_cook(pcb, cast, idflags);
		pcb->cflags = cflags;
	}
	dt_ident_attr_assign(pcb, n, idp, e, attr);
	/* DTrace keeps the variable node where this expands the inline: -x tree prints that */
	if (idp->inline_expr->kind != DT_NODE_INT) {
		e->inl = idp;
		e->inlargs = args;
	}
	return e;
}

static dt_node_t *
dt_cook_ident(dt_pcb_t *pcb, dt_node_t *n, uint32_t idflags, bool create)
{
	dt_ident_t *idp;

	if (n->op == DT_TOK_AGG) {
		/* @a alone names an aggregation; only @a = f() and @a[...] create one (dt_xcook_ident) */
		if (!create && dt_idtab_lookup(&pcb->aggs, n->string) == NULL)
			dnerror(pcb, n, D_IDENT_UNDEF, "failed to resolve @%s: Unknown variable name", n->string);
		idp = dt_var_lookup(pcb, n, &pcb->aggs, DT_IDENT_AGG, true, 0);
		n->kind = DT_NODE_AGG;
		n->ident = idp;
		n->args = NULL;
		n->flags |= DT_NF_COOKED;
		dt_node_attr_assign(pcb, n, idp->attr);
		return n;
	}
	/* inside an inline array's definition its parameters hide every other name */
	for (int i = 0; i < pcb->niparams; i++) {
		dt_ident_t *pid = pcb->iparams[i];
		if (pid != NULL && strcmp(n->string, pid->name) == 0) {
			n->kind = DT_NODE_VAR;
			n->ident = pid;
			dt_node_type_assign(n, pid->type);
			n->flags |= DT_NF_COOKED;
			dt_node_attr_assign(pcb, n, dt_attr_def);
			return n;
		}
	}
	/* inside a translator's member definitions its parameter hides every other name */
	if (pcb->xlarg != NULL && strcmp(n->string, pcb->xlarg->name) == 0) {
		n->kind = DT_NODE_VAR;
		n->ident = pcb->xlarg;
		dt_node_type_assign(n, pcb->xlarg->type);
		n->flags |= DT_NF_COOKED;
		dt_node_attr_assign(pcb, n, dt_attr_min(dt_attr_def, pcb->xlarg->attr));
		return n;
	}
	idp = dt_builtin_lookup(pcb, n->string);
	if (idp != NULL) {
		switch (idp->kind) {
		case DT_IDENT_ENUM: {
			dt_node_t *c = dt_node_int(pcb, (uint64_t)idp->value);
			c->line = n->line;
			dt_node_type_assign(c, idp->type);
			/* DTrace's parser makes an enumerator its integer: Stable/Stable/Common */
			return c;
		}
		case DT_IDENT_INLINE:
			/* one of an integer constant is that constant (DTrace's dt_node_ident), even an array's */
			if (idp->iparams != NULL && idp->inline_expr->kind != DT_NODE_INT)
				dnerror(pcb, n, D_IDENT_BADREF, "%s '%s' may not be referenced as %s",
					dt_idkind_name(DT_IDENT_ARRAY), n->string, dt_idkind_name(DT_IDENT_SCALAR));
			return dt_cook_inline_use(pcb, n, idp, idflags, NULL);
		case DT_IDENT_SCALAR:
			n->kind = DT_NODE_VAR;
			n->ident = idp;
			dt_node_type_assign(n, idp->type);
			n->flags |= DT_NF_COOKED | DT_NF_LVALUE;
			if (idp->flags & DT_IDFLG_WRITE)
				n->flags |= DT_NF_WRITABLE;
			dt_node_attr_assign(pcb, n, dt_attr_min(dt_attr_def, idp->attr));
			return n;
		case DT_IDENT_ARRAY:
			dnerror(pcb, n, D_IDENT_BADREF, "%s[ ] must be referenced as an array", n->string);
		default:
			dnerror(pcb, n, D_IDENT_BADREF, "%s '%s' may not be referenced as %s",
				dt_idkind_name(idp->kind), n->string, dt_idkind_name(DT_IDENT_SCALAR));
		}
	}
	idp = dt_idtab_lookup(&pcb->globals, n->string);
	if (idp == NULL && strchr(n->string, '`') != NULL)
		return dt_modsym_cook(pcb, n, idflags); /* mod`sym: a module's global (dt_modtypes.c) */
	if (idp == NULL && !create)
		dnerror(pcb, n, D_IDENT_UNDEF, "failed to resolve %s: Unknown variable name", n->string);
	if (idp == NULL)
		idp = dt_var_lookup(pcb, n, &pcb->globals, DT_IDENT_SCALAR, true, 0);
	if (idp->kind == DT_IDENT_ARRAY)
		dnerror(pcb, n, D_IDENT_BADREF, "%s '%s' may not be referenced as %s",
			dt_idkind_name(idp->kind), n->string, dt_idkind_name(DT_IDENT_SCALAR));
	if (idp->type == NULL && !create)
		dnerror(pcb, n, D_IDENT_UNDEF, "failed to resolve %s: Unknown variable name", n->string);
	idp->flags |= idflags;
	return dt_make_var(pcb, n, idp);
}

/* self->x, this->x */
static dt_node_t *
dt_cook_scoped(dt_pcb_t *pcb, dt_node_t *n, bool create)
{
	bool self = strcmp(n->left->string, "self") == 0;
	dt_idtab_t *tab = self ? &pcb->tls : &pcb->locals;
	dt_node_t *r = n->right;
	dt_ident_t *idp = dt_idtab_lookup(tab, r->string);

	if (idp == NULL)
		idp = dt_idtab_insert(pcb, tab, r->string, DT_IDENT_SCALAR,
				      DT_IDFLG_WRITE | (self ? DT_IDFLG_TLS : DT_IDFLG_LOCAL));
	/* read before any assignment or declaration: DTrace's D_VAR_UNDEF */
	if (!create && idp->type == NULL && !(idp->flags & (DT_IDFLG_REF | DT_IDFLG_MOD | DT_IDFLG_DECL)))
		dnerror(pcb, n, D_VAR_UNDEF, "%s%s has not yet been declared or assigned", self ? "self->" : "this->",
			r->string);
	if (idp->kind == DT_IDENT_ARRAY)
		dnerror(pcb, n, D_IDENT_BADREF, "%s '%s' may not be referenced as %s",
			dt_idkind_name(idp->kind), r->string, dt_idkind_name(DT_IDENT_SCALAR));
	r->line = n->line;
	return dt_make_var(pcb, r, idp);
}

static bool
dt_is_scoped(dt_node_t *n)
{
	return n->kind == DT_NODE_OP2 && n->op == DT_TOK_PTR && n->left->kind == DT_NODE_IDENT &&
	       n->left->op == DT_TOK_IDENT &&
	       (strcmp(n->left->string, "self") == 0 || strcmp(n->left->string, "this") == 0);
}

/* Cook an assignment target, creating variables as needed. */
static dt_node_t *
dt_cook_lvalue(dt_pcb_t *pcb, dt_node_t *l)
{
	if (l->kind == DT_NODE_IDENT)
		return dt_cook_ident(pcb, l, DT_IDFLG_MOD, true);
	if (l->kind == DT_NODE_OP2 && l->op == DT_TOK_LBRAC)
		return dt_cook_index(pcb, l, DT_IDFLG_MOD, true);
	if (dt_is_scoped(l))
		return dt_cook_scoped(pcb, l, true);
	return dt_cook(pcb, l, DT_IDFLG_MOD);
}

static void
dt_assign_var_type(dt_pcb_t *pcb, dt_node_t *l, dt_node_t *r)
{
	if (l->kind == DT_NODE_VAR && l->ident->type == NULL && !(l->ident->flags & DT_IDFLG_BUILTIN)) {
		dt_type_t *t = r->type;
		/* an integer constant gives its variable the constant's type, widened as DTrace does */
		l->ident->type = t;
		dt_node_type_assign(l, t);
		if (r->flags & DT_NF_USERLAND) {
			l->ident->flags |= DT_IDFLG_USER;
			l->flags |= DT_NF_USERLAND;
		}
		(void)pcb;
	}
}

static dt_node_t *
dt_cook_op1(dt_pcb_t *pcb, dt_node_t *n)
{
	char n1[256];
	dt_node_t *c;
	int op = n->op;

	if (op == DT_TOK_SIZEOF && n->left->kind == DT_NODE_TYPE) {
		dt_type_t *t = dt_type_resolve(n->left->type);
		if (t == NULL || (t->size == 0 && t->kind != DT_TK_ARRAY) || t->kind == DT_TK_FWD)
			dnerror(pcb, n, D_SIZEOF_TYPE, "cannot apply sizeof to an operand of unknown size");
		dt_node_t *f = dt_node_int(pcb, t->size);
		f->line = n->line;
		dt_node_type_assign(f, pcb->t_size);
		/* DTrace's parser turns the type node itself into the constant: its attributes stay */
		f->attr = n->left->attr;
		return f;
	}
	/*
	 * sizeof of a string constant is its length plus the NUL, not the
	 * string type's strsize: DTrace folds it when building the node
	 * (dt_node_op1, dt_node_type_size of a DT_NODE_STRING).
	 */
	if (op == DT_TOK_SIZEOF && n->left->kind == DT_NODE_STRING) {
		dt_node_t *f = dt_node_int(pcb, strlen(n->left->string) + 1);
		f->line = n->line;
		dt_node_type_assign(f, pcb->t_size);
		return f;
	}
	if (op == DT_TOK_PREINC || op == DT_TOK_POSTINC || op == DT_TOK_PREDEC || op == DT_TOK_POSTDEC) {
		c = n->left = dt_cook_lvalue(pcb, n->left);
		if (c->kind == DT_NODE_VAR && c->ident->type == NULL) {
			c->ident->type = pcb->t_int64;
			dt_node_type_assign(c, pcb->t_int64);
		}
	} else {
		c = n->left = dt_cook(pcb, n->left, DT_IDFLG_REF);
	}

	switch (op) {
	case DT_TOK_DEREF: {
		dt_type_t *t = dt_type_resolve(c->type);
		dt_ident_t *xl = dt_node_xlator(c);
		if (xl != NULL && dt_node_is_dynamic(c)) {
			/* the whole struct the translated pointer points at, translated member by member */
			n->ident = xl;
			dt_node_type_assign(n, xl->type);
			break;
		}
		if (dt_node_is_string(c)) {
			/* D's string is an array of char to DTrace: *s is its first char */
			dt_node_type_assign(n, pcb->t_char);
			n->flags |= DT_NF_LVALUE;
			if (c->flags & DT_NF_WRITABLE)
				n->flags |= DT_NF_WRITABLE;
			if (c->flags & DT_NF_USERLAND)
				n->flags |= DT_NF_USERLAND;
			break;
		}
		if (t == NULL || (t->kind != DT_TK_PTR && t->kind != DT_TK_ARRAY))
			dnerror(pcb, n, D_DEREF_NONPTR, "cannot dereference non-pointer type");
		dt_type_t *rt = dt_type_resolve(t->ref);
		if (rt == NULL || rt->kind == DT_TK_VOID)
			dnerror(pcb, n, D_DEREF_VOID, "cannot dereference pointer to void");
		if (rt->kind == DT_TK_FUNC)
			dnerror(pcb, n, D_DEREF_FUNC, "cannot dereference pointer to function");
		dt_node_type_assign(n, t->ref);
		if (rt->kind != DT_TK_ARRAY)
			n->flags |= DT_NF_LVALUE;
		if ((c->flags & DT_NF_WRITABLE) ||
		    (c->kind == DT_NODE_OP2 && c->op == DT_TOK_ADD && (c->left->flags & DT_NF_WRITABLE)))
			n->flags |= DT_NF_WRITABLE;
		if (c->flags & DT_NF_USERLAND)
			n->flags |= DT_NF_USERLAND;
		break;
	}
	case DT_TOK_IPOS:
	case DT_TOK_INEG:
		if (!dt_type_is_arith(c->type))
			dnerror(pcb, n, D_OP_ARITH, "operator %s requires an operand of arithmetic type",
				dt_opstr(op));
		dt_node_type_assign(n, c->type);
		n->flags |= c->flags & DT_NF_USERLAND; /* DTrace's dt_node_type_propagate() */
		if (c->kind == DT_NODE_INT) {
			/* as DTrace's dt_node_op1: a negated unsigned constant is cut to its size */
			uint64_t v = c->value;
			dt_type_t *ct = dt_type_resolve(c->type);
			if (op == DT_TOK_INEG) {
				v = -v;
				if (!(c->flags & DT_NF_SIGNED) && ct->size > 0 && ct->size < 8)
					v &= (UINT64_C(1) << (ct->size * 8)) - 1;
			}
			dt_node_t *f = dt_node_int(pcb, v);
			f->line = n->line;
			dt_node_type_assign(f, c->type);
			f->attr = c->attr;
			return f;
		}
		break;
	case DT_TOK_BNEG:
		if (!dt_node_is_integer(c))
			dnerror(pcb, n, D_OP_INT, "operator %s requires an operand of integral type",
				dt_opstr(op));
		dt_node_type_assign(n, c->type);
		n->flags |= c->flags & DT_NF_USERLAND;
		if (c->kind == DT_NODE_INT) {
			dt_node_t *f = dt_node_int(pcb, ~c->value); /* all 64 bits, as DTrace */
			f->line = n->line;
			dt_node_type_assign(f, c->type);
			f->attr = c->attr;
			return f;
		}
		break;
	case DT_TOK_LNEG:
		if (!dt_node_is_scalar(c))
			dnerror(pcb, n, D_OP_SCALAR, "operator %s requires an operand of scalar type",
				dt_opstr(op));
		dt_node_type_assign(n, pcb->t_int);
		if (c->kind == DT_NODE_INT) {
			/* DTrace's folded ! keeps its operand's type (!0L is a long) */
			dt_node_t *f = dt_node_int(pcb, c->value == 0);
			f->line = n->line;
			dt_node_type_assign(f, c->type);
			f->attr = c->attr;
			return f;
		}
		break;
	case DT_TOK_ADDROF:
		if (c->kind == DT_NODE_VAR || c->kind == DT_NODE_AGG)
			dnerror(pcb, n, D_ADDROF_VAR, "cannot take address of dynamic variable");
		if (dt_node_is_dynamic(c))
			dnerror(pcb, n, D_ADDROF_VAR, "cannot take address of dynamic object");
		if (!(c->flags & DT_NF_LVALUE))
			dnerror(pcb, n, D_ADDROF_LVAL, "unacceptable operand for unary & operator");
		if (c->flags & DT_NF_BITFIELD)
			dnerror(pcb, n, D_ADDROF_BITFIELD, "cannot take address of bit-field");
		dt_node_type_assign(n, dt_type_ptr(pcb, c->type));
		n->flags |= c->flags & DT_NF_USERLAND; /* &u->m is a userland pointer too */
		break;
	case DT_TOK_SIZEOF: {
		if (c->flags & DT_NF_BITFIELD)
			dnerror(pcb, n, D_SIZEOF_BITFIELD, "cannot apply sizeof to a bit-field");
		dt_type_t *t = dt_type_resolve(c->type);
		uint64_t sz = t == NULL ? 0 : t->kind == DT_TK_STRING ? pcb->strsize : t->size;
		if (sz == 0)
			dnerror(pcb, n, D_SIZEOF_TYPE, "cannot apply sizeof to an operand of unknown size");
		dt_node_t *f = dt_node_int(pcb, sz);
		f->line = n->line;
		dt_node_type_assign(f, pcb->t_size);
		dt_node_attr_assign(pcb, f, c->attr);
		return f;
	}
	case DT_TOK_STRINGOF:
		if (!dt_node_is_scalar(c) && !dt_node_is_pointer(c) && !dt_node_is_strcompat(c))
			dnerror(pcb, n, D_STRINGOF_TYPE, "cannot apply stringof to a value of type %s",
				dt_node_type_name(c, n1, sizeof(n1)));
		dt_node_type_assign(n, pcb->t_string);
		/* stringof a userland pointer is a string in user memory, copied from there (BYUREF) */
		n->flags |= c->flags & DT_NF_USERLAND;
		break;
	case DT_TOK_PREINC:
	case DT_TOK_POSTINC:
	case DT_TOK_PREDEC:
	case DT_TOK_POSTDEC:
		if (!dt_node_is_scalar(c))
			dnerror(pcb, n, D_OP_SCALAR, "operator %s requires operand of scalar type",
				dt_opstr(op));
		if (dt_node_is_vfptr(c))
			dnerror(pcb, n, D_OP_VFPTR, "operator %s requires an operand of known size",
				dt_opstr(op));
		if (!(c->flags & DT_NF_LVALUE))
			dnerror(pcb, n, D_OP_LVAL, "operator %s requires modifiable lvalue as an operand",
				dt_opstr(op));
		if (!(c->flags & DT_NF_WRITABLE))
			dnerror(pcb, n, D_OP_WRITE, "operator %s can only be applied to a writable variable",
				dt_opstr(op));
		dt_node_type_assign(n, c->type);
		n->flags |= c->flags & DT_NF_USERLAND;
		break;
	default:
		dnerror(pcb, n, D_UNKNOWN, "invalid unary op %s", dt_opstr(op));
	}
	n->flags |= DT_NF_COOKED;
	dt_node_attr_assign(pcb, n, c->attr);
	return n;
}

static void
dt_assign_common(dt_pcb_t *pcb, dt_node_t *n)
{
	dt_node_t *l = n->left;
	/* a constant right side is converted to the left side's size first, as DTrace does */
	if (n->right->kind == DT_NODE_INT)
		n->right->value = dt_cast_const(n->right, l->type);
	if (!(l->flags & DT_NF_LVALUE))
		dnerror(pcb, n, D_OP_LVAL, "operator %s requires modifiable lvalue as an operand",
			dt_opstr(n->op));
	if (!(l->flags & DT_NF_WRITABLE))
		dnerror(pcb, n, D_OP_WRITE, "operator %s can only be applied to a writable variable",
			dt_opstr(n->op));
	dt_node_type_assign(n, l->type);
	dt_node_attr_assign(pcb, n, dt_attr_min(l->attr, n->right->attr));
}

/*
 * A member of a translated expression: the translator's definition of that
 * member, copied into the tree (n->args) to be evaluated with the
 * translator's parameter bound to the translated value.  xlate<T>(e) is a
 * struct (operator .), xlate<T *>(e) a translated pointer (operator ->).
 */
static dt_node_t *
dt_cook_xlate_member(dt_pcb_t *pcb, dt_node_t *n, dt_ident_t *xl)
{
	char n1[256];
	int op = n->op;
	bool isptr = dt_node_is_dynamic(n->left);
	dt_node_t *mn = dt_xlator_member(xl, n->right->string);

	if (mn == NULL)
		dnerror(pcb, n, D_XLATE_NOCONV, "translator does not define conversion for member: %s",
			n->right->string);
	if (op == DT_TOK_PTR && !isptr)
		dnerror(pcb, n, D_OP_PTR, "operator %s must be applied to a pointer", dt_opstr(op));
	if (op == DT_TOK_DOT && isptr)
		dnerror(pcb, n, D_OP_SOU,
			"operator %s cannot be applied to type \"%s\"; must be applied to a struct or union",
			dt_opstr(op), dt_type_name(dt_type_ptr(pcb, xl->type), n1, sizeof(n1)));
	dt_member_t *m = dt_type_member(dt_type_resolve(xl->type), n->right->string);
	n->member = m;
	dt_node_type_assign(n, m->type);
	if (op == DT_TOK_PTR && dt_type_resolve(m->type)->kind != DT_TK_ARRAY)
		n->flags |= DT_NF_LVALUE;
	dt_decl_xlate_use(pcb, n, mn);
	n->args = dt_node_copy_list(pcb, mn->left);
	n->flags |= DT_NF_COOKED;
	dt_node_attr_assign(pcb, n, n->left->attr);
	return n;
}

static dt_node_t *
dt_cook_member(dt_pcb_t *pcb, dt_node_t *n)
{
	char n1[256];
	int op = n->op;
	dt_node_t *l = n->left = dt_cook(pcb, n->left, DT_IDFLG_REF);
	dt_type_t *t = dt_type_resolve(l->type);
	dt_ident_t *xl;

	if (n->right->kind != DT_NODE_IDENT || dt_ident_is_intconst(pcb, n->right->string))
		dnerror(pcb, n, D_OP_IDENT, "operator %s must be followed by an identifier", dt_opstr(op));
	if ((xl = dt_node_xlator(l)) != NULL)
		return dt_cook_xlate_member(pcb, n, xl);
	if (op == DT_TOK_PTR) {
		if (t == NULL || t->kind != DT_TK_PTR)
			dnerror(pcb, n, D_OP_PTR, "operator %s must be applied to a pointer", dt_opstr(op));
		t = dt_type_resolve(t->ref);
	}
	if (t != NULL && t->kind == DT_TK_FWD) {
		dt_type_t *def = dt_type_tag(pcb, DT_TK_STRUCT, t->name);
		if (def == NULL || def->kind == DT_TK_FWD)
			dnerror(pcb, n, D_OP_INCOMPLETE,
				"operator %s cannot be applied to a forward declaration: no %s definition is available",
				dt_opstr(op), dt_type_name(t, n1, sizeof(n1)));
		t = def;
	}
	if (t == NULL || (t->kind != DT_TK_STRUCT && t->kind != DT_TK_UNION)) {
		if (op == DT_TOK_PTR)
			dnerror(pcb, n, D_OP_SOU,
				"operator -> cannot be applied to pointer to type \"%s\"; must be applied to a struct or union pointer",
				dt_type_name(t, n1, sizeof(n1)));
		dnerror(pcb, n, D_OP_SOU,
			"operator %s cannot be applied to type \"%s\"; must be applied to a struct or union",
			dt_opstr(op), dt_node_type_name(l, n1, sizeof(n1)));
	}
	dt_member_t *m = dt_type_member(t, n->right->string);
	if (m == NULL)
		dnerror(pcb, n, D_TYPE_MEMBER, "%s is not a member of %s", n->right->string,
			dt_type_name(t, n1, sizeof(n1)));
	n->member = m;
	dt_node_type_assign(n, m->type);
	dt_type_t *mt = dt_type_resolve(m->type);
	if (op == DT_TOK_PTR && mt->kind != DT_TK_ARRAY)
		n->flags |= DT_NF_LVALUE;
	if (op == DT_TOK_DOT && (l->flags & DT_NF_LVALUE) && mt->kind != DT_TK_ARRAY)
		n->flags |= DT_NF_LVALUE;
	if (l->flags & DT_NF_WRITABLE)
		n->flags |= DT_NF_WRITABLE;
	if (m->bits > 0)
		n->flags |= DT_NF_BITFIELD;
	/*
	 * A member of a userland struct is read with a user load (code
	 * generation asks the left operand), but DTrace calls only a pointer
	 * or a by-reference member (struct, union, array) userland itself.
	 */
	if ((l->flags & DT_NF_USERLAND) && (mt->kind == DT_TK_PTR || (n->flags & DT_NF_REF)))
		n->flags |= DT_NF_USERLAND;
	n->flags |= DT_NF_COOKED;
	dt_node_attr_assign(pcb, n, l->attr);
	return n;
}

static dt_node_t *
dt_cook_op2(dt_pcb_t *pcb, dt_node_t *n, uint32_t idflags)
{
	char n1[256], n2[256];
	int op = n->op;
	dt_node_t *l, *r;

	switch (op) {
	case DT_TOK_LBRAC:
		return dt_cook_index(pcb, n, idflags, false);
	case DT_TOK_PTR:
		if (dt_is_scoped(n))
			return dt_cook_scoped(pcb, n, false);
		return dt_cook_member(pcb, n);
	case DT_TOK_DOT:
		return dt_cook_member(pcb, n);
	case DT_TOK_OFFSETOF: {
		dt_type_t *t = dt_type_resolve(n->left->type);
		if (t == NULL || (t->kind != DT_TK_STRUCT && t->kind != DT_TK_UNION))
			dnerror(pcb, n, D_OFFSETOF_TYPE, "offsetof operand must be a struct or union type");
		dt_member_t *m = dt_type_member(t, n->right->string);
		if (m == NULL)
			dnerror(pcb, n, D_UNKNOWN, "failed to determine offset of %s: Invalid member name",
				n->right->string);
		if (m->bits > 0)
			dnerror(pcb, n, D_OFFSETOF_BITFIELD, "cannot take offset of a bit-field: %s",
				n->right->string);
		/*
		 * DTrace's dt_node_offsetof() makes the offset dt_node_int()'s
		 * constant, typed as a decimal one: an int, or a long past INT_MAX.
		 */
		dt_node_t *f = dt_node_int(pcb, m->off);
		f->line = n->line;
		if (m->off > INT32_MAX)
			dt_node_type_assign(f, pcb->t_long);
		return f;
	}
	case DT_TOK_LPAR: { /* cast */
		dt_type_t *lt = n->left->type;
		dt_type_t *lr = dt_type_resolve(lt);
		r = n->right = dt_cook(pcb, n->right, DT_IDFLG_REF);
		dt_type_t *rr = dt_type_resolve(r->type);
		if (dt_type_compat(lt, r->type))
			;
		else if (dt_type_is_scalar(lt) && (dt_node_is_scalar(r) || (rr && rr->kind == DT_TK_FUNC)))
			;
		else if (dt_node_is_void(n->left))
			;
		else if (lr->kind == DT_TK_PTR && dt_node_is_pointer(r))
			;
		else if (dt_type_is_string(lt) && (dt_node_is_scalar(r) || dt_node_is_pointer(r) ||
						  dt_node_is_strcompat(r)))
			;
		else
			dnerror(pcb, n, D_CAST_INVAL, "invalid cast expression: \"%s\" to \"%s\"",
				dt_node_type_name(r, n1, sizeof(n1)), dt_type_name(lt, n2, sizeof(n2)));
		dt_node_type_assign(n, lt);
		/* the cast's type decides: (userland T *)e is a userland pointer, (T *)u is not */
		n->flags &= ~DT_NF_USERLAND;
		n->flags |= n->left->flags & DT_NF_USERLAND;
		if (lr->kind == DT_TK_PTR)
			n->flags |= DT_NF_WRITABLE;
		if (r->kind == DT_NODE_INT && dt_type_is_integer(lt)) {
			dt_node_t *f = dt_node_int(pcb, dt_cast_const(r, lt));
			f->line = n->line;
			dt_node_type_assign(f, lt);
			dt_node_attr_assign(pcb, f, dt_attr_min(n->left->attr, r->attr));
			return f;
		}
		n->flags |= DT_NF_COOKED;
		dt_node_attr_assign(pcb, n, dt_attr_min(n->left->attr, r->attr));
		return n;
	}
	case DT_TOK_XLATE: {
		/* xlate<T>(e) is a struct T made by the translator; xlate<T *>(e) a translated pointer */
		dt_type_t *to = n->left->type;
		dt_ident_t *xl;
		r = n->right = dt_cook(pcb, n->right, DT_IDFLG_REF);
		if ((xl = dt_xlator_lookup(pcb, r, to, false)) == NULL)
			dnerror(pcb, n, D_XLATE_NONE, "cannot translate from \"%s\" to \"%s\"",
				dt_node_type_name(r, n1, sizeof(n1)), dt_type_name(to, n2, sizeof(n2)));
		n->ident = xl;
		dt_node_type_assign(n, dt_type_resolve(to)->kind == DT_TK_PTR ? pcb->t_dyn : xl->type);
		n->flags |= DT_NF_COOKED;
		/* the translated value's and the translator's (the least of its members') */
		dt_node_attr_assign(pcb, n, dt_attr_min(r->attr, xl->attr));
		return n;
	}
	case DT_TOK_ASGN: {
		l = n->left;
		if (l->kind == DT_NODE_IDENT && l->op == DT_TOK_AGG)
			l = dt_cook_ident(pcb, l, DT_IDFLG_MOD, true);
		else
			l = dt_cook_lvalue(pcb, l);
		n->left = l;
		r = n->right = dt_cook(pcb, n->right, DT_IDFLG_REF);
		if (l->kind == DT_NODE_AGG) {
			dt_ident_t *aid = l->ident;
			if (r->kind != DT_NODE_FUNC || r->ident->kind != DT_IDENT_AGGFUNC)
				dnerror(pcb, n, D_AGG_FUNC, "@%s must be assigned the result of an aggregating function",
					aid->name);
			if (aid->aggfunc != NULL && aid->aggfunc->id != r->ident->id)
				dnerror(pcb, n, D_AGG_REDEF,
					"aggregation redefined: @%s\n\t current: @%s = %s( )\n\tprevious: @%s = %s( ) : line %d",
					aid->name, aid->name, r->ident->name, aid->name, aid->aggfunc->name,
					aid->line);
			if (aid->aggfunc == NULL) {
				aid->aggfunc = r->ident;
				aid->line = n->line;
			}
			if (l->aggfun != NULL)
				dnerror(pcb, n, D_OP_LVAL, "operator = requires modifiable lvalue as an operand");
			aid->flags |= DT_IDFLG_MOD;
			l->aggfun = r;
			l->line = n->line;
			/* DTrace's dt_cook_aggregation(): the keys' and the aggregation's, not f()'s */
			dtrace_attribute_t attr = dt_attr_def;
			for (dt_node_t *k = l->args; k != NULL; k = k->list)
				attr = dt_attr_min(attr, k->attr);
			dt_node_attr_assign(pcb, l, dt_attr_min(attr, aid->attr));
			return l;
		}
		if (r->kind == DT_NODE_AGG) {
			/*
			 * An aggregation is of dynamic type, which nothing may be
			 * assigned from; a new variable would take that type
			 * first and be named by its kind, as DTrace does.
			 */
			bool fresh = l->kind == DT_NODE_VAR && l->ident->type == NULL &&
			             !(l->ident->flags & DT_IDFLG_BUILTIN);
			dnerror(pcb, n, D_OP_INCOMPAT, "operands have incompatible types: \"%s\" %s \"%s\"",
				fresh ? dt_idkind_name(l->ident->kind) : dt_node_type_name(l, n1, sizeof(n1)),
				dt_opstr(op), dt_node_type_name(r, n2, sizeof(n2)));
		}
		/* an aggregating function's value is void, as an action's (count() is "void") */
		/* a new variable takes the void type first, as in DTrace: "void" = "void" */
		dt_assign_var_type(pcb, l, r);
		if (dt_node_is_void(r))
			dnerror(pcb, n, D_OP_INCOMPAT, "operands have incompatible types: \"%s\" %s \"%s\"",
				dt_node_type_name(l, n1, sizeof(n1)), dt_opstr(op),
				dt_node_type_name(r, n2, sizeof(n2)));
		if (l->kind == DT_NODE_VAR)
			l->ident->flags |= DT_IDFLG_MOD;
		if (!dt_node_is_string(l)) {
			dt_type_t *lt = dt_type_resolve(l->type);
			if (lt != NULL && (lt->kind == DT_TK_ARRAY || lt->kind == DT_TK_FUNC))
				dnerror(pcb, n, D_OP_ARRFUN, "operator %s may not be applied to operand of type \"%s\"",
					dt_opstr(op), dt_node_type_name(l, n1, sizeof(n1)));
		}
		/* translated data goes to a variable of the translator's output type (a copy), as in DTrace */
		if (!(dt_node_xlator(r) != NULL && !dt_node_is_dynamic(r) && dt_type_compat(l->type, r->type)) &&
		    !dt_node_is_argcompat(l, r))
			dnerror(pcb, n, D_OP_INCOMPAT, "operands have incompatible types: \"%s\" %s \"%s\"",
				dt_node_type_name(l, n1, sizeof(n1)), dt_opstr(op),
				dt_node_type_name(r, n2, sizeof(n2)));
		dt_assign_common(pcb, n);
		break;
	}
	case DT_TOK_ADD_EQ:
	case DT_TOK_SUB_EQ:
	case DT_TOK_MUL_EQ:
	case DT_TOK_DIV_EQ:
	case DT_TOK_MOD_EQ:
	case DT_TOK_AND_EQ:
	case DT_TOK_XOR_EQ:
	case DT_TOK_OR_EQ:
	case DT_TOK_LSH_EQ:
	case DT_TOK_RSH_EQ:
		/* DTrace refuses a literal zero divisor while parsing, before anything is cooked */
		if ((op == DT_TOK_DIV_EQ || op == DT_TOK_MOD_EQ) && n->right->kind == DT_NODE_INT &&
		    n->right->value == 0)
			dnerror(pcb, n, D_DIV_ZERO, "expression contains division by zero");
		l = n->left = dt_cook_lvalue(pcb, n->left);
		/*
		 * The left side is read as well as written: a variable nothing has
		 * assigned or declared yet may be created here but not used
		 * (DTrace cooks it with DT_IDFLG_REF | DT_IDFLG_MOD; ++ and -- are
		 * the operators that instantiate an int64_t).
		 */
		if (l->kind == DT_NODE_VAR && l->ident->type == NULL && !(l->ident->flags & DT_IDFLG_BUILTIN))
			dnerror(pcb, l, D_VAR_UNDEF, "%s%s has not yet been declared or assigned",
				(l->ident->flags & DT_IDFLG_LOCAL) ? "this->"
				: (l->ident->flags & DT_IDFLG_TLS) ? "self->" : "",
				l->ident->name);
		r = n->right = dt_cook(pcb, n->right, DT_IDFLG_REF);
		if ((op == DT_TOK_DIV_EQ || op == DT_TOK_MOD_EQ) && r->kind == DT_NODE_INT && r->value == 0)
			dnerror(pcb, n, D_DIV_ZERO, "expression contains division by zero");
		if (op == DT_TOK_ADD_EQ || op == DT_TOK_SUB_EQ) {
			if (dt_node_is_string(l) || dt_node_is_string(r))
				dnerror(pcb, n, D_OP_INCOMPAT, "operands have incompatible types: \"%s\" %s \"%s\"",
					dt_node_type_name(l, n1, sizeof(n1)), dt_opstr(op),
					dt_node_type_name(r, n2, sizeof(n2)));
			if (!dt_node_is_integer(l) || !dt_node_is_integer(r)) {
				if (!dt_node_is_pointer(l) || dt_node_is_vfptr(l))
					dnerror(pcb, n, D_OP_VFPTR,
						"operator %s requires left-hand scalar operand of known size",
						dt_opstr(op));
				if (!dt_node_is_integer(r) && !dt_node_is_ptrcompat(l, r))
					dnerror(pcb, n, D_OP_INCOMPAT,
						"operands have incompatible types: \"%s\" %s \"%s\"",
						dt_node_type_name(l, n1, sizeof(n1)), dt_opstr(op),
						dt_node_type_name(r, n2, sizeof(n2)));
			}
		} else if (op == DT_TOK_MUL_EQ || op == DT_TOK_DIV_EQ) {
			if (!dt_type_is_arith(l->type) || !dt_type_is_arith(r->type))
				dnerror(pcb, n, D_OP_ARITH, "operator %s requires operands of arithmetic type",
					dt_opstr(op));
		} else {
			if (!dt_node_is_integer(l) || !dt_node_is_integer(r))
				dnerror(pcb, n, D_OP_INT, "operator %s requires operands of integral type",
					dt_opstr(op));
		}
		if (l->kind == DT_NODE_VAR)
			l->ident->flags |= DT_IDFLG_MOD | DT_IDFLG_REF;
		dt_assign_common(pcb, n);
		break;
	default:
		l = n->left = dt_cook(pcb, n->left, DT_IDFLG_REF);
		/* enum tags on the right of a comparison with an enum */
		if ((op == DT_TOK_EQU || op == DT_TOK_NEQ || op == DT_TOK_LT || op == DT_TOK_LE ||
		     op == DT_TOK_GT || op == DT_TOK_GE) &&
		    dt_type_resolve(l->type) != NULL && dt_type_resolve(l->type)->kind == DT_TK_ENUM &&
		    n->right->kind == DT_NODE_IDENT) {
			dt_member_t *m = dt_type_member(l->type, n->right->string);
			for (m = dt_type_resolve(l->type)->members; m != NULL; m = m->next)
				if (strcmp(m->name, n->right->string) == 0)
					break;
			/*
			 * DTrace reads a name that is an integer constant (a D
			 * enumerator, an inline) as that constant while parsing;
			 * any other global of that name makes the tag ambiguous.
			 */
			dt_ident_t *g;
			if (m != NULL && !dt_ident_is_intconst(pcb, n->right->string) &&
			    ((g = dt_builtin_lookup(pcb, n->right->string)) != NULL ||
			     (g = dt_idtab_lookup(&pcb->globals, n->right->string)) != NULL))
				dnerror(pcb, n, D_IDENT_AMBIG,
					"ambiguous use of operator %s: %s is both a %s enum tag and a global %s",
					dt_opstr(op), n->right->string, dt_node_type_name(l, n1, sizeof(n1)),
					dt_idkind_name(g->kind));
			if (m != NULL && !dt_ident_is_intconst(pcb, n->right->string)) {
				dt_node_t *c = dt_node_int(pcb, (uint64_t)m->value);
				c->line = n->right->line;
				dt_node_type_assign(c, l->type);
				/* DTrace gives a type's enumerator the attributes of a symbol */
				dt_node_attr_assign(pcb, c, dt_attr_sym);
				n->right = c;
			}
		}
		r = n->right = dt_cook(pcb, n->right, DT_IDFLG_REF);
		/* a divisor DTrace would have folded to 0 while parsing */
		if ((op == DT_TOK_DIV || op == DT_TOK_MOD) && r->kind == DT_NODE_INT && r->value == 0)
			dnerror(pcb, n, D_DIV_ZERO, "expression contains division by zero");
		if (op == DT_TOK_COMMA && (dt_node_is_dynoperand(l) || dt_node_is_dynoperand(r)))
			dnerror(pcb, n, D_OP_DYN, "operator %s operands cannot be of dynamic type", dt_opstr(op));
		/* only , refuses actions as such: elsewhere their types decide (stack() + 1) */
		if (op == DT_TOK_COMMA && (dt_node_is_actfunc(l) || dt_node_is_actfunc(r)))
			dnerror(pcb, n, D_OP_ACT, "operator %s operands cannot be actions", dt_opstr(op));
		switch (op) {
		case DT_TOK_BAND:
		case DT_TOK_XOR:
		case DT_TOK_BOR:
		case DT_TOK_MOD:
			if (!dt_node_is_integer(l) || !dt_node_is_integer(r))
				dnerror(pcb, n, D_OP_INT, "operator %s requires operands of integral type",
					dt_opstr(op));
			dt_node_type_assign(n, dt_type_promote(pcb, l, r));
			break;
		case DT_TOK_LSH:
		case DT_TOK_RSH:
			if (!dt_node_is_integer(l) || !dt_node_is_integer(r))
				dnerror(pcb, n, D_OP_INT, "operator %s requires operands of integral type",
					dt_opstr(op));
			dt_node_type_assign(n, l->type); /* the left operand's type, unpromoted, as DTrace */
			break;
		case DT_TOK_MUL:
		case DT_TOK_DIV:
			if (!dt_type_is_arith(l->type) || !dt_type_is_arith(r->type))
				dnerror(pcb, n, D_OP_ARITH, "operator %s requires operands of arithmetic type",
					dt_opstr(op));
			dt_node_type_assign(n, dt_type_promote(pcb, l, r));
			break;
		case DT_TOK_LAND:
		case DT_TOK_LXOR:
		case DT_TOK_LOR:
			if (!dt_node_is_scalar(l) || !dt_node_is_scalar(r))
				dnerror(pcb, n, D_OP_SCALAR, "operator %s requires operands of scalar type",
					dt_opstr(op));
			dt_node_type_assign(n, pcb->t_int);
			break;
		case DT_TOK_LT:
		case DT_TOK_LE:
		case DT_TOK_GT:
		case DT_TOK_GE:
		case DT_TOK_EQU:
		case DT_TOK_NEQ:
			if (dt_type_compat(l->type, r->type))
				;
			else if (dt_node_is_integer(l) && dt_node_is_integer(r))
				;
			else if (dt_node_is_strcompat(l) && dt_node_is_strcompat(r) &&
				 (dt_node_is_string(l) || dt_node_is_string(r)))
				;
			else if (!dt_node_is_ptrcompat(l, r))
				dnerror(pcb, n, D_OP_INCOMPAT, "operands have incompatible types: \"%s\" %s \"%s\"",
					dt_node_type_name(l, n1, sizeof(n1)), dt_opstr(op),
					dt_node_type_name(r, n2, sizeof(n2)));
			dt_node_type_assign(n, pcb->t_int);
			break;
		case DT_TOK_ADD:
		case DT_TOK_SUB: {
			bool lp = dt_node_is_string(l) || (dt_node_is_pointer(l) && !dt_node_is_vfptr(l));
			bool rp = dt_node_is_string(r) || (dt_node_is_pointer(r) && !dt_node_is_vfptr(r));
			bool li = dt_node_is_integer(l), ri = dt_node_is_integer(r);
			if (li && ri) {
				dt_node_type_assign(n, dt_type_promote(pcb, l, r));
			} else if (lp && ri) {
				dt_type_t *lt = dt_type_resolve(l->type);
				dt_node_type_assign(n, lt->kind == DT_TK_ARRAY ? dt_type_ptr(pcb, lt->ref) : l->type);
				n->flags &= ~DT_NF_REF;
				if (l->flags & DT_NF_USERLAND)
					n->flags |= DT_NF_USERLAND;
			} else if (li && rp && op == DT_TOK_ADD) {
				dt_type_t *rt = dt_type_resolve(r->type);
				dt_node_type_assign(n, rt->kind == DT_TK_ARRAY ? dt_type_ptr(pcb, rt->ref) : r->type);
				n->flags &= ~DT_NF_REF;
			} else if (lp && rp && op == DT_TOK_SUB && dt_node_is_ptrcompat(l, r)) {
				dt_node_type_assign(n, pcb->t_ptrdiff);
			} else {
				dnerror(pcb, n, D_OP_INCOMPAT, "operands have incompatible types: \"%s\" %s \"%s\"",
					dt_node_type_name(l, n1, sizeof(n1)), dt_opstr(op),
					dt_node_type_name(r, n2, sizeof(n2)));
			}
			break;
		}
		case DT_TOK_COMMA:
			if (dt_node_is_dynoperand(l) || dt_node_is_dynoperand(r))
				dnerror(pcb, n, D_OP_DYN, "operator %s operands cannot be of dynamic type",
					dt_opstr(op));
			dt_node_type_assign(n, r->type);
			break;
		default:
			dnerror(pcb, n, D_UNKNOWN, "invalid binary op %s", dt_opstr(op));
		}
		if (l->kind == DT_NODE_INT && r->kind == DT_NODE_INT && op != DT_TOK_COMMA)
			return dt_fold2(pcb, n);
		dt_node_attr_assign(pcb, n, dt_attr_min(l->attr, r->attr));
		break;
	}
	n->flags |= DT_NF_COOKED;
	return n;
}

/*
 * Whether DTrace's parser reduces `n` to an integer constant as it builds
 * it (dt_node_op1/op2/op3 fold immediate operands there, before any check):
 * a literal; unary -, +, ~ or ! of one; an arithmetic, bitwise, shift,
 * comparison or logical operator on two; a cast of one to an integer type;
 * a ?: of three.  Only such a ?: condition picks its branch unchecked.
 */
static bool
dt_parse_const(dt_node_t *n)
{
	switch (n->kind) {
	case DT_NODE_INT:
		return true;
	case DT_NODE_OP1:
		return (n->op == DT_TOK_INEG || n->op == DT_TOK_IPOS || n->op == DT_TOK_BNEG ||
			n->op == DT_TOK_LNEG) &&
		       dt_parse_const(n->left);
	case DT_NODE_OP2:
		switch (n->op) {
		case DT_TOK_LPAR:
			return n->left->kind == DT_NODE_TYPE && dt_node_is_integer(n->left) &&
			       dt_parse_const(n->right);
		case DT_TOK_LOR: case DT_TOK_LXOR: case DT_TOK_LAND: case DT_TOK_BOR:
		case DT_TOK_XOR: case DT_TOK_BAND: case DT_TOK_EQU: case DT_TOK_NEQ:
		case DT_TOK_LT: case DT_TOK_LE: case DT_TOK_GT: case DT_TOK_GE:
		case DT_TOK_LSH: case DT_TOK_RSH: case DT_TOK_ADD: case DT_TOK_SUB:
		case DT_TOK_MUL: case DT_TOK_DIV: case DT_TOK_MOD:
			return dt_parse_const(n->left) && dt_parse_const(n->right);
		default:
			return false;
		}
	case DT_NODE_OP3:
		return dt_parse_const(n->cond) && dt_parse_const(n->left) && dt_parse_const(n->right);
	default:
		return false;
	}
}

static dt_node_t *
dt_cook_op3(dt_pcb_t *pcb, dt_node_t *n)
{
	char n1[256], n2[256];

	/* DTrace's parser keeps only the chosen branch of a constant condition:
	 * 1 ? "a" : 2 is "a", and the other branch is never checked. */
	if (dt_parse_const(n->cond)) {
		n->cond = dt_cook(pcb, n->cond, DT_IDFLG_REF);
		if (n->cond->kind == DT_NODE_INT)
			return dt_cook(pcb, n->cond->value != 0 ? n->left : n->right, DT_IDFLG_REF);
	}
	dt_node_t *c = n->cond = dt_cook(pcb, n->cond, DT_IDFLG_REF);
	dt_node_t *l = n->left = dt_cook(pcb, n->left, DT_IDFLG_REF);
	dt_node_t *r = n->right = dt_cook(pcb, n->right, DT_IDFLG_REF);

	if (!dt_node_is_scalar(c))
		dnerror(pcb, n, D_OP_SCALAR, "operator ?: expression must be of scalar type");
	if (dt_node_is_dynoperand(l) || dt_node_is_dynoperand(r))
		dnerror(pcb, n, D_OP_DYN, "operator ?: operands cannot be of dynamic type");
	if (dt_node_is_integer(l) && dt_node_is_integer(r)) {
		dt_node_type_assign(n, dt_type_promote(pcb, l, r));
	} else if (dt_type_compat(l->type, r->type) ||
		   (dt_node_is_strcompat(l) && dt_node_is_strcompat(r) &&
		    (dt_node_is_string(l) || dt_node_is_string(r)))) {
		dt_node_type_assign(n, dt_node_is_string(l) || dt_node_is_string(r) ? pcb->t_string : l->type);
	} else if (dt_node_is_ptrcompat(l, r)) {
		dt_node_type_assign(n, dt_node_is_pointer(l) ? l->type : r->type);
	} else {
		dnerror(pcb, n, D_OP_INCOMPAT, "operator ?: operands must have compatible types");
	}
	if (dt_node_is_actfunc(l) || dt_node_is_actfunc(r))
		dnerror(pcb, n, D_OP_ACT, "action cannot be used in a conditional context");
	(void)n1;
	(void)n2;
	if (c->kind == DT_NODE_INT)
		return c->value != 0 ? l : r;
	n->flags |= DT_NF_COOKED;
	dt_node_attr_assign(pcb, n, dt_attr_min(c->attr, dt_attr_min(l->attr, r->attr)));
	return n;
}

dt_node_t *
dt_cook(dt_pcb_t *pcb, dt_node_t *n, uint32_t idflags)
{
	if (n == NULL)
		return NULL;
	if (n->flags & DT_NF_COOKED)
		return n;
	switch (n->kind) {
	case DT_NODE_INT:
	case DT_NODE_STRING:
		n->flags |= DT_NF_COOKED;
		return n;
	case DT_NODE_IDENT:
		if (strcmp(n->string, "self") == 0 || strcmp(n->string, "this") == 0)
			dnerror(pcb, n, D_SYNTAX, "syntax error near \"%s\"", n->string);
		return dt_cook_ident(pcb, n, idflags, false);
	case DT_NODE_FUNC:
		return dt_cook_func(pcb, n);
	case DT_NODE_OP1:
		return dt_cook_op1(pcb, n);
	case DT_NODE_OP2:
		return dt_cook_op2(pcb, n, idflags);
	case DT_NODE_OP3:
		return dt_cook_op3(pcb, n);
	case DT_NODE_TYPE:
		return n;
	default:
		return n;
	}
}
