/*
 * dt_decl.c: D declarations.
 *
 * The grammar collects declaration specifiers (dt_declspec_t) and
 * declarators (dt_declarator_t chains, applied to the base type from the
 * outside in); this file turns them into types, typedefs, struct/union/enum
 * definitions, typed variables (global, self->, this->, associative arrays
 * with key signatures), inlines and translators.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dt_grammar.h"
#include "dt_parse.h"

dt_declspec_t *
dt_ds_new(dt_pcb_t *pcb)
{
	dt_declspec_t *ds = dt_zalloc(pcb, sizeof(*ds));
	ds->line = pcb->lineno;
	return ds;
}

/*
 * What DTrace's lexer knows of the declaration being parsed.  Its
 * id_or_type() returns an identifier, not a type name, for a name that is a
 * type when the declaration on top of the current scope's stack already has
 * a type name (dd_name: void, char, int, float, double, string, a typedef
 * name, a struct, union or enum tag; not short, long, signed, unsigned or a
 * qualifier), so "int foo_t;" and "int *foo_t;" declare foo_t (and are then
 * refused: "typedef identifier redeclared").  A pointer declarator pushed on
 * the stack hides that name until the declarator ends ("int *(*foo_t)" does
 * not declare foo_t); a struct, union or enum body, array brackets and a
 * function's parameters are scopes of their own; the declaration's end pops
 * it.  Our grammar calls these where DTrace's dt_decl_spec(), dt_decl_ptr(),
 * dt_decl_reset(), dt_decl_pop() and dt_scope_push()/pop() run, so the
 * lexer's answer changes at the same tokens.  Deeper than 63 scopes nothing
 * is named (no program nests declarations so deep).
 */
void
dt_dscope_push(dt_pcb_t *pcb)
{
	pcb->dscope++;
	if (pcb->dscope < 64) {
		pcb->dscope_named &= ~(1ULL << pcb->dscope);
		pcb->dscope_ptr &= ~(1ULL << pcb->dscope);
	}
}

void
dt_dscope_pop(dt_pcb_t *pcb)
{
	if (pcb->dscope > 0)
		pcb->dscope--;
}

void
dt_dscope_name(dt_pcb_t *pcb)
{
	if (pcb->dscope < 64)
		pcb->dscope_named |= 1ULL << pcb->dscope;
}

void
dt_dscope_ptr(dt_pcb_t *pcb)
{
	if (pcb->dscope < 64)
		pcb->dscope_ptr |= 1ULL << pcb->dscope;
}

/* a declarator ends: the declaration's specifiers are on top again */
void
dt_dscope_reset(dt_pcb_t *pcb)
{
	if (pcb->dscope < 64)
		pcb->dscope_ptr &= ~(1ULL << pcb->dscope);
}

/* a declaration, a parameter or a type name ends */
void
dt_dscope_end(dt_pcb_t *pcb)
{
	if (pcb->dscope < 64) {
		pcb->dscope_named &= ~(1ULL << pcb->dscope);
		pcb->dscope_ptr &= ~(1ULL << pcb->dscope);
	}
}

bool
dt_dscope_named(const dt_pcb_t *pcb)
{
	return pcb->dscope < 64 && (pcb->dscope_named & (1ULL << pcb->dscope)) &&
	       !(pcb->dscope_ptr & (1ULL << pcb->dscope));
}

void
dt_ds_class(dt_pcb_t *pcb, dt_declspec_t *ds, int cls)
{
	if (ds->cls != DT_DC_NONE)
		dt_error(pcb, 0, D_DECL_CLASS, "only one storage class allowed in a declaration");
	ds->cls = cls;
}

void
dt_ds_mod(dt_pcb_t *pcb, dt_declspec_t *ds, uint32_t mod)
{
	if (mod == DT_DS_LONG && (ds->mods & DT_DS_LONGLONG))
		dt_error(pcb, 0, D_DECL_COMBO, "the attribute 'long' may only be used at most twice in a declaration");
	if (mod == DT_DS_SHORT && (ds->mods & DT_DS_SHORT))
		dt_error(pcb, 0, D_DECL_COMBO, "the attribute 'short' may only be used at most once in a declaration");
	if (mod == DT_DS_SIGNED && (ds->mods & DT_DS_SIGNED))
		dt_error(pcb, 0, D_DECL_COMBO, "the attribute 'signed' may only be used at most once in a declaration");
	if (mod == DT_DS_UNSIGNED && (ds->mods & DT_DS_UNSIGNED))
		dt_error(pcb, 0, D_DECL_COMBO, "the attribute 'unsigned' may only be used at most once in a declaration");
	if (mod == DT_DS_LONG && (ds->mods & DT_DS_LONG)) {
		mod = DT_DS_LONGLONG;
		ds->mods &= ~DT_DS_LONG;
	}
	/* signed with unsigned, or short with long, name no type: dt_ds_type says so */
	ds->mods |= mod;
}

void
dt_ds_base(dt_pcb_t *pcb, dt_declspec_t *ds, int kw)
{
	if (ds->base != 0 || ds->named != NULL)
		dt_error(pcb, 0, D_DECL_COMBO, "invalid type combination");
	ds->base = kw;
	dt_dscope_name(pcb);
}

void
dt_ds_named(dt_pcb_t *pcb, dt_declspec_t *ds, dt_type_t *t)
{
	if (ds->base != 0 || ds->named != NULL)
		dt_error(pcb, 0, D_DECL_COMBO, "invalid type combination");
	ds->named = t;
	/* an anonymous struct, union or enum names nothing (DTrace's dd_name stays NULL) */
	if (t == NULL || t->name != NULL)
		dt_dscope_name(pcb);
}

/*
 * A typedef name among a declaration's specifiers (DTrace's dt_decl_spec()):
 * the type, unless one came before it.  Then in a typedef it names the type
 * again ("identifier redeclared"); elsewhere it is the declared name, as if
 * the lexer had given an identifier (and a second name after it is an
 * old-style declaration).
 */
void
dt_ds_tname(dt_pcb_t *pcb, dt_declspec_t *ds, const char *name)
{
	if (ds->base == 0 && ds->named == NULL) {
		dt_ds_named(pcb, ds, dt_type_lookup(pcb, name));
		return;
	}
	/* after an anonymous struct, union or enum no name was known: DTrace's dd_name is NULL */
	if (ds->base == 0 && ds->named->name == NULL)
		dt_error(pcb, 0, D_DECL_COMBO, "invalid type combination");
	if (ds->cls == DT_DC_TYPEDEF)
		dt_error(pcb, 0, D_DECL_IDRED, "identifier redeclared: %s", name);
	if (ds->ident != NULL)
		dt_error(pcb, 0, D_DECL_IDENT, "old-style declaration or incorrect type specified");
	ds->ident = name;
}

/* The declarator of a name read among the specifiers (dt_ds_tname), if any. */
static dt_declarator_t *
dt_ds_ident(dt_pcb_t *pcb, dt_declspec_t *ds, dt_declarator_t *dd)
{
	if (ds->ident == NULL)
		return dd;
	if (dd != NULL)
		dt_error(pcb, 0, D_DECL_IDENT, "old-style declaration or incorrect type specified");
	dd = dt_dd_new(pcb, DT_DD_NAME);
	dd->name = ds->ident;
	return dd;
}

/*
 * The name DTrace looks up for an integer or floating-point type: its
 * attributes in a fixed order, then the keyword unless short or long
 * replaced it ("short long " for "long short", "signed unsigned int").
 * Combinations D's types lack fail that lookup.
 */
static _Noreturn void
dt_ds_unknown(dt_pcb_t *pcb, dt_declspec_t *ds)
{
	uint32_t m = ds->mods;
	char name[64] = "";

	if (m & DT_DS_SIGNED)
		strcat(name, "signed ");
	if (m & DT_DS_UNSIGNED)
		strcat(name, "unsigned ");
	if (m & DT_DS_SHORT)
		strcat(name, "short ");
	if (m & DT_DS_LONG)
		strcat(name, "long ");
	if (m & DT_DS_LONGLONG)
		strcat(name, "long long ");
	if (ds->base == DT_KEY_FLOAT || ds->base == DT_KEY_DOUBLE ||
	    (ds->base != 0 && !(m & (DT_DS_SHORT | DT_DS_LONG | DT_DS_LONGLONG))))
		strcat(name, ds->base == DT_KEY_FLOAT ? "float" : ds->base == DT_KEY_DOUBLE ? "double" :
			     ds->base == DT_KEY_CHAR ? "char" : "int");
	dt_error(pcb, 0, D_UNKNOWN, "failed to resolve type %s: Unknown type name", name);
}

dt_type_t *
dt_ds_type(dt_pcb_t *pcb, dt_declspec_t *ds)
{
	uint32_t m = ds->mods;
	dt_type_t *t;
	bool sign = !(m & DT_DS_UNSIGNED);

	if (ds->named != NULL || ds->base == DT_KEY_STRING) {
		/* DTrace's checks of a typedef name, struct, union or enum (string is a typedef) */
		if (m & (DT_DS_SIGNED | DT_DS_UNSIGNED))
			dt_error(pcb, 0, D_DECL_SIGNINT,
				 "invalid type declaration: signed and unsigned may only be used with integer type");
		if (m & (DT_DS_LONG | DT_DS_LONGLONG))
			dt_error(pcb, 0, D_DECL_LONGINT,
				 "invalid type declaration: long and long long may only be used with integer or floating-point type");
		/* short is not checked: DTrace's dt_decl_check() lets it by, and the name alone is looked up */
		return ds->named != NULL ? ds->named : pcb->t_string;
	}
	switch (ds->base) {
	case DT_KEY_VOID:
		if (m & ~(DT_DS_CONST | DT_DS_VOLATILE | DT_DS_RESTRICT | DT_DS_USER))
			dt_error(pcb, 0, D_DECL_VOIDATTR, "invalid type declaration: attributes may not be used with void type");
		return pcb->t_void;
	case DT_KEY_CHAR:
		if (m & (DT_DS_SHORT | DT_DS_LONG | DT_DS_LONGLONG))
			dt_error(pcb, 0, D_DECL_CHARATTR, "invalid type declaration: short and long may not be used with char type");
		if ((m & DT_DS_SIGNED) && (m & DT_DS_UNSIGNED))
			dt_ds_unknown(pcb, ds);
		if (m & DT_DS_SIGNED)
			return dt_type_lookup(pcb, "signed char");
		return sign ? pcb->t_char : pcb->t_uchar;
	case DT_KEY_FLOAT:
	case DT_KEY_DOUBLE:
		if (m & (DT_DS_SIGNED | DT_DS_UNSIGNED))
			dt_error(pcb, 0, D_DECL_SIGNINT, "invalid type declaration: signed and unsigned may only be used with integer type");
		/* D has float, double and long double only */
		if ((m & (DT_DS_SHORT | DT_DS_LONGLONG)) || (ds->base == DT_KEY_FLOAT && (m & DT_DS_LONG)))
			dt_ds_unknown(pcb, ds);
		t = dt_type_lookup(pcb, ds->base == DT_KEY_FLOAT ? "float" : (m & DT_DS_LONG) ? "long double" : "double");
		return t;
	case DT_KEY_INT:
	case 0:
		if (((m & DT_DS_SIGNED) && (m & DT_DS_UNSIGNED)) ||
		    ((m & DT_DS_SHORT) && (m & (DT_DS_LONG | DT_DS_LONGLONG))))
			dt_ds_unknown(pcb, ds);
		if (m & DT_DS_SHORT)
			return sign ? pcb->t_short : pcb->t_ushort;
		if (m & DT_DS_LONGLONG) /* its own name: printf's %ll conversions ask for it */
			return dt_type_lookup(pcb, sign ? "long long" : "unsigned long long");
		if (m & DT_DS_LONG)
			return sign ? pcb->t_long : pcb->t_ulong;
		/*
		 * No type at all (a storage class alone: "register x;", "self x;")
		 * is int, as DTrace names an attribute-less integer decl.  A
		 * qualifier alone ("const x;") leaves DTrace an empty name to
		 * look up, which fails.
		 */
		if (ds->base == 0 && (m & (DT_DS_CONST | DT_DS_VOLATILE | DT_DS_RESTRICT | DT_DS_USER)) &&
		    !(m & (DT_DS_SIGNED | DT_DS_UNSIGNED)))
			dt_ds_unknown(pcb, ds);
		return sign ? pcb->t_int : pcb->t_uint;
	default:
		dt_error(pcb, 0, D_DECL_COMBO, "invalid type combination");
	}
}

dt_declarator_t *
dt_dd_new(dt_pcb_t *pcb, int kind)
{
	dt_declarator_t *d = dt_zalloc(pcb, sizeof(*d));
	d->kind = kind;
	d->line = pcb->lineno;
	d->bits = -1;
	return d;
}

/* Appends d to the list headed by list, in constant time: the head knows its last declarator. */
dt_declarator_t *
dt_dd_append(dt_declarator_t *list, dt_declarator_t *d)
{
	dt_declarator_t *p = list->last != NULL ? list->last : list;

	while (p->next != NULL)
		p = p->next;
	p->next = d;
	list->last = d;
	return list;
}

static dt_declarator_t *
dt_dd_tuple(dt_declarator_t *dd)
{
	for (; dd != NULL; dd = dd->inner)
		if (dd->kind == DT_DD_ARRAY && dd->tuple)
			return dd;
	return NULL;
}

/*
 * A parameter of a function or associative array declaration: its type,
 * and its name (if any) in the node's string.  Only register is a storage
 * class a parameter may have.  A parameter declared as an associative
 * array (int f(int a[int])) has DTrace's dynamic type, which no prototype
 * accepts (dt_decl_prototype).
 */
static dt_type_t *dt_decl_type_as(dt_pcb_t *pcb, dt_type_t *base, dt_declarator_t *dd, const char **namep,
				  bool assoc);

dt_node_t *
dt_decl_param(dt_pcb_t *pcb, dt_declspec_t *ds, dt_declarator_t *dd)
{
	const char *name;
	dt_type_t *t;
	dt_node_t *n;

	if (ds->cls != DT_DC_NONE && ds->cls != DT_DC_REGISTER)
		dt_error(pcb, 0, D_DECL_PARMCLASS,
			 "inappropriate storage class for function or associative array parameter");
	dd = dt_ds_ident(pcb, ds, dd);
	t = dt_decl_type_as(pcb, dt_ds_type(pcb, ds), dd, &name, true);
	n = dt_node_type_written(pcb, t);
	n->string = name;
	return n;
}

/*
 * DTrace's checks of a prototype (dt_decl_prototype): what each parameter
 * may be for this kind of declaration, void alone, names used once.  When
 * flist is another list (a probe's output prototype against its input one),
 * each name used must instead be one flist declares.  Returns the number of
 * parameters, `...' included, or 0 for a sole void.
 */
int
dt_decl_prototype(dt_pcb_t *pcb, dt_node_t *plist, dt_node_t *flist, const char *kind, unsigned flags)
{
	char n1[256];
	int nvoid = 0, i = 1;
	bool form = plist != flist;

	for (dt_node_t *p = plist; p != NULL; p = p->list, i++) {
		bool isvoid = p->type != NULL && dt_type_is_void(p->type);
		if (p->op == DT_TOK_ELLIPSIS && !(flags & DT_DP_VARARGS))
			dnerror(pcb, p, D_DECL_PROTO_VARARGS, "%s prototype may not use a variable-length argument list",
				kind);
		if (p->op == DT_TOK_ELLIPSIS)
			continue;
		if (p->type == pcb->t_assoc || p->type == pcb->t_dyn)
			dnerror(pcb, p, D_DECL_PROTO_TYPE, "%s prototype may not use parameter of type %s: %s, parameter #%d",
				kind, dt_type_name(p->type, n1, sizeof(n1)), p->string != NULL ? p->string : "(anonymous)", i);
		nvoid += isvoid;
		if (isvoid && !(flags & DT_DP_VOID))
			dnerror(pcb, p, D_DECL_PROTO_TYPE, "%s prototype may not use parameter of type %s: %s, parameter #%d",
				kind, dt_type_name(p->type, n1, sizeof(n1)), p->string != NULL ? p->string : "(anonymous)", i);
		if (isvoid && p->string != NULL)
			dnerror(pcb, p, D_DECL_PROTO_NAME, "void parameter may not have a name: %s", p->string);
		if (p->string != NULL) {
			bool found = false;
			for (dt_node_t *q = flist; q != NULL && q != p && !found; q = q->list)
				found = q->string != NULL && strcmp(q->string, p->string) == 0;
			if (found != form)
				dnerror(pcb, p, D_DECL_PROTO_FORM, "parameter is %s declared in %s prototype: %s, parameter #%d",
					form ? "not" : "already", kind, p->string, i);
		}
		if (p->string == NULL && !isvoid && !(flags & DT_DP_ANON))
			dnerror(pcb, p, D_DECL_PROTO_NAME, "parameter declaration requires a name: parameter #%d", i);
	}
	if (nvoid != 0 && plist->list != NULL)
		dt_error(pcb, 0, D_DECL_PROTO_VOID, "void must be sole parameter");
	return nvoid != 0 ? 0 : i - 1;
}

/* struct, union or enum without a definition (DTrace's "incomplete" types) */
static bool
dt_type_is_incomplete(dt_type_t *t)
{
	dt_type_t *r = dt_type_resolve(t);
	return r != NULL && (r->kind == DT_TK_FWD ||
			     ((r->kind == DT_TK_STRUCT || r->kind == DT_TK_UNION) && r->size == 0));
}

static bool
dt_dd_has_ptr(const dt_declarator_t *dd)
{
	for (; dd != NULL; dd = dd->inner)
		if (dd->kind == DT_DD_PTR)
			return true;
	return false;
}

static int
dt_dd_push(dt_pcb_t *pcb, dt_declarator_t *dd, dt_declarator_t **st, int n)
{
	if (dd == NULL || dd->kind == DT_DD_NAME)
		return n;
	/*
	 * '*' is pushed as it is read, before what follows it; a suffix
	 * after what it follows -- but a function's parameter list after a
	 * parenthesised pointer, (*f)(), goes beneath that pointer, as
	 * dt_decl_func() puts it under the decl marked DT_DA_PAREN.
	 */
	if (dd->kind == DT_DD_PTR || (dd->kind == DT_DD_FUNC && dt_dd_has_ptr(dd->inner))) {
		st[n++] = dd;
		return dt_dd_push(pcb, dd->inner, st, n);
	}
	n = dt_dd_push(pcb, dd->inner, st, n);
	if (dd->kind == DT_DD_ARRAY) {
		/* dt_decl_array(): beneath the arrays on top, for x[2][3]'s layout */
		int k = n;
		while (k > 0 && st[k - 1]->kind == DT_DD_ARRAY)
			k--;
		if (k < n) {
			if (dd->tuple)
				dt_error(pcb, 0, D_DECL_DYNOBJ, "cannot declare array of associative arrays");
			memmove(st + k + 1, st + k, sizeof(*st) * (size_t)(n - k));
		}
		st[k] = dd;
		return n + 1;
	}
	st[n++] = dd;
	return n;
}

/*
 * DTrace's declaration stack for a declarator chain, from the decl next to
 * the base type to the top, each applied to the type of those beneath it
 * (dt_decl_type).  Its grammar pushes each declarator as it is reduced:
 * so an array suffix lands above every pointer read before it, whatever
 * the parentheses say: int (*x)[3] is int *x[3], an array of pointers, and
 * int (*x)[int] an associative array of int *.  *np: the stack's height.
 */
static dt_declarator_t **
dt_dd_stack(dt_pcb_t *pcb, dt_declarator_t *chain, int *np)
{
	size_t len = 1;

	for (dt_declarator_t *d = chain; d != NULL; d = d->inner)
		len++;
	dt_declarator_t **st = dt_zalloc(pcb, sizeof(*st) * len);
	*np = dt_dd_push(pcb, chain, st, 0);
	return st;
}

/* The top of DTrace's declaration stack for the chain: what the declaration declares. */
static dt_declarator_t *
dt_dd_top(dt_pcb_t *pcb, dt_declarator_t *chain)
{
	int n;
	dt_declarator_t **st = dt_dd_stack(pcb, chain, &n);
	return n > 0 ? st[n - 1] : NULL;
}

/*
 * Apply a declarator chain to base; returns the declared name in *namep.
 * An associative array's declarator (x[int]) leaves the type as it is, the
 * value type its variable takes, unless assoc: then it is DTrace's <DYN>,
 * as its dt_decl_type() makes it for a typedef.
 */
static dt_type_t *
dt_decl_type_as(dt_pcb_t *pcb, dt_type_t *base, dt_declarator_t *chain, const char **namep, bool assoc)
{
	dt_type_t *t = base;
	int n = 0;
	dt_declarator_t **st = dt_dd_stack(pcb, chain, &n);

	*namep = NULL;
	for (dt_declarator_t *d = chain; d != NULL; d = d->inner)
		if (d->kind == DT_DD_NAME)
			*namep = d->name;
	for (int i = 0; i < n; i++) {
		dt_declarator_t *dd = st[i];
		switch (dd->kind) {
		case DT_DD_NAME:
			break;
		case DT_DD_PTR:
			t = dt_type_ptr(pcb, t);
			break;
		case DT_DD_ARRAY:
			/*
			 * DTrace's dt_decl_array() refuses an array whose element
			 * is the type named "void" itself, not a typedef of it
			 * (typedef void v; v a[4]; is an array it accepts).
			 */
			if (t == pcb->t_void)
				dt_error(pcb, 0, D_DECL_VOIDOBJ, "cannot declare array of void");
			if (dd->tuple) {
				/* associative array: the caller reads the key types */
				dt_decl_prototype(pcb, dd->params, dd->params, "array", DT_DP_ANON);
				if (assoc)
					t = pcb->t_assoc;
				break;
			}
			if (dd->dim == NULL) {
				t = dt_type_array(pcb, t, 0);
			} else {
				dt_node_t *n = dt_cook(pcb, dd->dim, 0);
				if (n->kind != DT_NODE_INT || n->value == 0 ||
				    ((int64_t)n->value < 0 && (n->flags & DT_NF_SIGNED)))
					dt_error(pcb, 0, D_DECL_ARRSUB, "positive integral constant expression or tuple "
						 "signature expected as array declaration subscript");
				if (n->value > UINT32_MAX)
					dt_error(pcb, 0, D_DECL_ARRBIG, "array dimension too big");
				t = dt_type_array(pcb, t, n->value);
			}
			break;
		case DT_DD_FUNC: {
			dt_decl_prototype(pcb, dd->params, dd->params, "function", DT_DP_VARARGS | DT_DP_VOID | DT_DP_ANON);
			dt_type_t *f = dt_type_new(pcb, DT_TK_FUNC, NULL, 0);
			int n = 0;
			f->ref = t;
			for (dt_node_t *p = dd->params; p != NULL; p = p->list) {
				if (p->op == DT_TOK_ELLIPSIS) {
					f->varargs = true;
					continue;
				}
				if (dt_type_is_void(p->type) && dd->params->list == NULL)
					continue;
				n++;
			}
			f->args = dt_zalloc(pcb, sizeof(dt_type_t *) * ((size_t)n + 1));
			for (dt_node_t *p = dd->params; p != NULL; p = p->list) {
				if (p->op == DT_TOK_ELLIPSIS || (dt_type_is_void(p->type) && dd->params->list == NULL))
					continue;
				f->args[f->nargs++] = p->type;
			}
			t = f;
			break;
		}
		}
	}
	return t;
}

dt_type_t *
dt_decl_type(dt_pcb_t *pcb, dt_type_t *base, dt_declarator_t *dd, const char **namep)
{
	return dt_decl_type_as(pcb, base, dd, namep, false);
}

/*
 * A type name (a cast's, sizeof's, xlate's, offsetof's or a translator's):
 * its type node.  userland among the specifiers marks the node, not the
 * type, as DTrace's DTT_FL_USER does: loads through the pointer are
 * user-space loads, and the type itself is the kernel's one.
 */
dt_node_t *
dt_decl_typename(dt_pcb_t *pcb, dt_declspec_t *ds, dt_declarator_t *dd)
{
	const char *name;
	dt_type_t *t = dt_ds_type(pcb, ds);
	dt_node_t *n = dt_node_type(pcb, dt_decl_type_as(pcb, t, dd, &name, true));

	if (ds->mods & DT_DS_USER)
		n->flags |= DT_NF_USERLAND;
	return n;
}

/*
 * Extern declarations.  DTrace records an extern (and a function declared
 * at program scope, which it takes for one) as a symbol of its "D" module,
 * standing for a kernel or module symbol of that name: a second declaration
 * must have the same type, and nothing else changes.  The name stays unknown
 * to expressions (`f', `&f' are "failed to resolve", `f(...)' an undefined
 * function), as it is in DTrace, whose plain names never reach module
 * symbols; D``f and ``f name it (dt_modsym_cook), `f and D`f do not.  Types compare as CTF ids do: by identity, with all function
 * types one "int ()" as in DTrace, so pointers and named types match
 * themselves and each array declarator is a new type.
 */
static dt_type_t *
dt_decl_extern_type(dt_pcb_t *pcb, dt_type_t *t)
{
	if (t->kind == DT_TK_FUNC) {
		if (pcb->t_func == NULL) {
			pcb->t_func = dt_type_new(pcb, DT_TK_FUNC, NULL, 0);
			pcb->t_func->ref = pcb->t_int;
		}
		return pcb->t_func;
	}
	if (t->kind == DT_TK_PTR)
		return dt_type_ptr(pcb, dt_decl_extern_type(pcb, t->ref));
	return t;
}

static void
dt_decl_extern(dt_pcb_t *pcb, const char *name, dt_type_t *t)
{
	dt_ident_t *idp = dt_idtab_lookup(&pcb->externs, name);
	char n1[256], n2[256];

	t = dt_decl_extern_type(pcb, t);
	if (idp == NULL) {
		idp = dt_idtab_insert(pcb, &pcb->externs, name, DT_IDENT_SCALAR, 0);
		idp->type = t;
	} else if (idp->type != t) {
		dt_error(pcb, 0, D_DECL_IDRED, "identifier redeclared: D`%s\n\t current: %s\n\tprevious: %s", name,
			 dt_type_name(t, n1, sizeof(n1)), dt_type_name(idp->type, n2, sizeof(n2)));
	}
}

/* A typedef of this name in the container a new one would join (dt_type_index's incdefs). */
static bool
dt_typedef_in_container(dt_pcb_t *pcb, const char *name)
{
	bool inc = pcb->cppbuf != NULL && pcb->filetag != NULL;
	dt_type_t *t = dt_type_lookup_d(pcb, name);

	if (t == NULL || t->incdefs == inc)
		return t != NULL;
	/* the newest of the name is the other container's: look for an older one (rare) */
	for (t = pcb->types; t != NULL; t = t->next)
		if (t->kind == DT_TK_TYPEDEF && t->incdefs == inc && t->name != NULL && strcmp(t->name, name) == 0)
			return true;
	return false;
}

void
dt_decl_declare(dt_pcb_t *pcb, dt_declspec_t *ds, dt_declarator_t *list)
{
	dt_type_t *base = dt_ds_type(pcb, ds);

	list = dt_ds_ident(pcb, ds, list);
	if (list == NULL) {
		/* "struct foo { ... };" or "enum e { ... };" alone is fine */
		dt_type_t *r = dt_type_resolve(base);
		if (r != NULL && (r->kind == DT_TK_STRUCT || r->kind == DT_TK_UNION ||
				  r->kind == DT_TK_ENUM || r->kind == DT_TK_FWD))
			return;
		dt_error(pcb, 0, D_DECL_USELESS, "useless declaration");
	}

	for (dt_declarator_t *dd = list; dd != NULL; dd = dd->next) {
		const char *name;
		dt_type_t *t = dt_decl_type_as(pcb, base, dd, &name, ds->cls == DT_DC_TYPEDEF);
		dt_declarator_t *tup = dt_dd_tuple(dd);
		int cls;

		if (name == NULL)
			dt_error(pcb, 0, D_DECL_IDENT, "declaration requires an identifier");
		if (strchr(name, '`') != NULL)
			dt_error(pcb, 0, D_DECL_SCOPE, "D scoping operator may not be used in a declaration name (%s)",
				 name);
		if (ds->cls == DT_DC_TYPEDEF) {
			if (dt_idtab_lookup(&pcb->globals, name) != NULL || dt_builtin_lookup(pcb, name) != NULL)
				dt_error(pcb, 0, D_DECL_IDRED, "global variable identifier redeclared: %s", name);
			/*
			 * DTrace looks the name up in the container the typedef
			 * goes to: its "C" one in a file cpp included, else "D".
			 * A header may define again a type D has (int8_t, ino_t).
			 */
			if (dt_typedef_in_container(pcb, name))
				dt_error(pcb, 0, D_DECL_IDRED, "typedef redeclared: %s", name);
			dt_type_define(pcb, name, t);
			continue;
		}
		cls = ds->cls;
		/* DTrace takes a function declared at program scope, plain or static, for an extern */
		if (t->kind == DT_TK_FUNC && (cls == DT_DC_NONE || cls == DT_DC_STATIC))
			cls = DT_DC_EXTERN;
		if (cls == DT_DC_EXTERN) {
			dt_decl_extern(pcb, name, t);
			continue;
		}
		if (cls == DT_DC_STATIC || cls == DT_DC_AUTO || cls == DT_DC_REGISTER)
			dt_error(pcb, 0, D_DECL_BADCLASS, "specified storage class not appropriate in D");
		/*
		 * A variable of function type (self int f(int); this ...) is
		 * declared as any other, as DTrace's dt_node_decl() does, with
		 * the one function type "int ()" that its dt_decl_type() gives
		 * every function declarator.
		 */
		t = dt_decl_extern_type(pcb, t);
		dt_declarator_t *top = dt_dd_top(pcb, dd);
		if (top != NULL && top->kind == DT_DD_ARRAY && !top->tuple && top->dim == NULL)
			dt_error(pcb, 0, D_DECL_ARRNULL,
				 "array declaration requires array dimension or tuple signature: %s", name);

		/*
		 * DTrace's checks, in its order.  Its globals include the
		 * built-ins, and the program's inlines and enumerators, which
		 * our compiler keeps in pcb->builtins: a declaration of such a
		 * name is compared with it like one of a variable (an inline of
		 * the same type is declared again, harmlessly).
		 */
		dt_idtab_t *tab = &pcb->globals;
		uint32_t fl = DT_IDFLG_WRITE | DT_IDFLG_DECL;
		if (ds->cls == DT_DC_SELF) {
			tab = &pcb->tls;
			fl |= DT_IDFLG_TLS;
		} else if (ds->cls == DT_DC_THIS) {
			tab = &pcb->locals;
			fl |= DT_IDFLG_LOCAL;
		}
		dt_ident_t *idp = dt_idtab_lookup(tab, name);
		if (idp == NULL && tab == &pcb->globals)
			idp = dt_builtin_lookup(pcb, name);
		if (idp != NULL && (idp->flags & DT_IDFLG_BUILTIN))
			dt_error(pcb, 0, D_DECL_IDRED, "built-in identifier redeclared: %s", name);
		if (dt_type_lookup_d(pcb, name) != NULL)
			dt_error(pcb, 0, D_DECL_IDRED, "typedef identifier redeclared: %s", name);
		if (tup != NULL && ds->cls == DT_DC_THIS)
			dt_error(pcb, 0, D_DECL_LOCASSC, "associative arrays may not be declared as local variables: %s",
				 name);
		if (idp != NULL) {
			dt_idkind_t kind = tup != NULL ? DT_IDENT_ARRAY : DT_IDENT_SCALAR;
			/* DTrace's inlines are scalars, or arrays (inline T f[T1 a] = e) */
			dt_idkind_t okind = idp->kind == DT_IDENT_INLINE
						    ? (idp->iparams != NULL ? DT_IDENT_ARRAY : DT_IDENT_SCALAR)
						    : idp->kind;
			/* DTrace compares the two types' CTF ids, and each array
			 * declarator makes a new array type: int a[3]; int a[3]; */
			if (!dt_type_compat(idp->type, t) || okind != kind ||
			    (t->kind == DT_TK_ARRAY && t != idp->type)) {
				char n1[256], n2[256];
				dt_error(pcb, 0, D_DECL_IDRED, "identifier redeclared: %s\n\t current: %s %s\n\tprevious: %s %s",
					 name, dt_idkind_name(kind), dt_type_name(t, n1, sizeof(n1)),
					 dt_idkind_name(okind),
					 idp->type != NULL ? dt_type_name(idp->type, n2, sizeof(n2)) : "<none>");
			}
			if (tup != NULL) {
				/* the same key types, then the same number of keys */
				char n1[256], n2[256];
				int i = 0;
				for (dt_node_t *p = tup->params; p != NULL; p = p->list, i++) {
					if (i >= idp->nkeys || dt_type_compat(p->type, idp->keys[i]))
						continue;
					dt_error(pcb, 0, D_DECL_IDRED,
						 "identifier redeclared: %s\n\t current: %s, key #%d of type %s\n"
						 "\tprevious: %s, key #%d of type %s",
						 name, dt_idkind_name(kind), i + 1, dt_type_name(p->type, n1, sizeof(n1)),
						 dt_idkind_name(idp->kind), i + 1,
						 dt_type_name(idp->keys[i], n2, sizeof(n2)));
				}
				if (i != idp->nkeys)
					dt_error(pcb, 0, D_DECL_IDRED,
						 "identifier redeclared: %s\n\t current: %s of %s, tuple length %d\n"
						 "\tprevious: %s of %s, tuple length %d",
						 name, dt_idkind_name(kind), dt_type_name(t, n1, sizeof(n1)), i,
						 dt_idkind_name(idp->kind), dt_type_name(idp->type, n2, sizeof(n2)),
						 idp->nkeys);
			}
			continue;
		}
		if (dt_type_is_void(t))
			dt_error(pcb, 0, D_DECL_VOIDOBJ, "cannot have void object: %s", name);
		if (dt_type_is_incomplete(t)) {
			char n1[256];
			dt_error(pcb, 0, D_DECL_INCOMPLETE, "incomplete struct/union/enum %s: %s",
				 dt_type_name(t, n1, sizeof(n1)), name);
		}
		idp = dt_idtab_insert(pcb, tab, name, tup != NULL ? DT_IDENT_ARRAY : DT_IDENT_SCALAR, fl);
		idp->type = t;
		idp->line = pcb->lineno;
		if (tab == &pcb->globals)
			dt_pragma_apply(pcb, idp);
		if (tup != NULL) {
			int n = dt_node_count(tup->params);
			idp->keys = dt_zalloc(pcb, sizeof(dt_type_t *) * (size_t)n);
			idp->nkeys = 0;
			for (dt_node_t *p = tup->params; p != NULL; p = p->list)
				if (p->type != NULL)
					idp->keys[idp->nkeys++] = p->type;
		}
	}
}

/* ---- struct, union, enum ------------------------------------------------ */

/*
 * DTrace checks a struct, union or enum keyword against the specifiers before
 * it as soon as the tag (or the "{" of a definition) is read, as its
 * dt_decl_spec() does, not once the definition ends: "struct a { ... }
 * struct b {" with the ";" forgotten fails at the second "{".
 */
static void
dt_ds_tag_check(dt_pcb_t *pcb)
{
	dt_declspec_t *ds = pcb->ds_outer;

	pcb->ds_outer = NULL;
	if (ds == NULL)
		return;
	if (ds->base != 0 || ds->named != NULL)
		dt_error(pcb, 0, D_DECL_COMBO, "invalid type combination");
	if (ds->mods & (DT_DS_SIGNED | DT_DS_UNSIGNED))
		dt_error(pcb, 0, D_DECL_SIGNINT,
			 "invalid type declaration: signed and unsigned may only be used with integer type");
	if (ds->mods & (DT_DS_LONG | DT_DS_LONGLONG))
		dt_error(pcb, 0, D_DECL_LONGINT,
			 "invalid type declaration: long and long long may only be used with integer or floating-point type");
}

dt_type_t *
dt_decl_sou_begin(dt_pcb_t *pcb, int kw, const char *tag)
{
	bool ref = (kw & 0x10000) != 0;
	dt_tkind_t kind = (kw & 0xffff) == DT_KEY_UNION ? DT_TK_UNION : DT_TK_STRUCT;
	dt_ds_tag_check(pcb);
	/* a definition may shadow a module's type of the same tag; a reference finds it */
	dt_type_t *t = tag == NULL ? NULL : ref ? dt_type_tag(pcb, kind, tag) : dt_type_tag_d(pcb, kind, tag);

	if (ref) {
		if (t == NULL) {
			t = dt_type_new(pcb, DT_TK_FWD, tag, 0);
			t->fwdkind = kind;
			dt_type_tag_add(pcb, t);
		}
		return t;
	}
	if (t != NULL && t->kind != DT_TK_FWD)
		dt_error(pcb, 0, D_DECL_TYPERED, "type redeclared: %s %s",
			 kind == DT_TK_UNION ? "union" : "struct", tag);
	if (t == NULL) {
		t = dt_type_new(pcb, kind, tag, 0);
		if (tag != NULL) {
			dt_type_tag_add(pcb, t);
		}
	}
	t->kind = kind;
	t->size = 0;
	t->align = 1;
	if (pcb->sou_depth >= (int)(sizeof(pcb->sou_stack) / sizeof(pcb->sou_stack[0])))
		dt_error(pcb, 0, D_DECL_COMBO, "struct or union nested too deeply");
	pcb->sou_last[pcb->sou_depth] = NULL;
	pcb->sou_stack[pcb->sou_depth++] = t;
	return t;
}

/*
 * Has sou a member named `name' already (libctf refuses a second)?  Else
 * record it.  One hash set of (struct, name) pairs for the compilation, so
 * a struct of n members is defined in O(n).
 */
static bool
dt_decl_member_dup(dt_pcb_t *pcb, const dt_type_t *sou, const char *name)
{
	uint32_t mask, i;

	if (2 * (pcb->mncount + 1) > pcb->mnsize) {
		struct dt_membername *old = pcb->mnames;
		uint32_t oldsize = pcb->mnsize;

		pcb->mnsize = oldsize != 0 ? 2 * oldsize : 256;
		pcb->mnames = dt_zalloc(pcb, pcb->mnsize * sizeof(*pcb->mnames));
		pcb->mncount = 0;
		for (uint32_t j = 0; j < oldsize; j++)
			if (old[j].name != NULL)
				(void)dt_decl_member_dup(pcb, old[j].sou, old[j].name);
	}
	mask = pcb->mnsize - 1;
	i = (dt_idtab_strhash(name) ^ (uint32_t)((uintptr_t)sou >> 4)) & mask;
	for (; pcb->mnames[i].name != NULL; i = (i + 1) & mask)
		if (pcb->mnames[i].sou == sou && strcmp(pcb->mnames[i].name, name) == 0)
			return true;
	pcb->mnames[i].sou = sou;
	pcb->mnames[i].name = name;
	pcb->mncount++;
	return false;
}

/*
 * The alignment DTrace's libctf gives a member of type t when it lays out a
 * struct declared in D (ctf_type_align): a base type or pointer is aligned
 * to its size (long double to 16), an array to its element (so a string,
 * libdtrace's char[strsize], to 1), an enum to an int, a union to its most
 * aligned member and a struct to its first member only.  A struct's size
 * is the end of its last member (see dt_decl_sou_end), so these are D's
 * layout rules even where a C compiler would pad differently.
 */
static uint64_t dt_decl_ctf_align(dt_type_t *t, int depth);

/* A bit-field's type is an integer of its width in bytes rounded up to a power of two. */
static uint64_t
dt_decl_member_align(const dt_member_t *m, int depth)
{
	if (m->bits > 0) {
		uint64_t bytes = ((uint64_t)m->bits + 7) / 8, size = 1;
		while (size < bytes)
			size *= 2;
		return size;
	}
	return dt_decl_ctf_align(m->type, depth + 1);
}

static uint64_t
dt_decl_ctf_align(dt_type_t *t, int depth)
{
	uint64_t a = 0;

	t = dt_type_resolve(t);
	if (t == NULL || depth > 64)
		return 1;
	switch (t->kind) {
	case DT_TK_ARRAY:
		return dt_decl_ctf_align(t->ref, depth + 1);
	case DT_TK_STRING:
		return 1;
	case DT_TK_ENUM:
		return 4;
	case DT_TK_STRUCT:
		return t->members != NULL ? dt_decl_member_align(t->members, depth) : 1;
	case DT_TK_UNION:
		for (dt_member_t *m = t->members; m != NULL; m = m->next) {
			uint64_t ma = dt_decl_member_align(m, depth);
			if (ma > a)
				a = ma;
		}
		return a != 0 ? a : 1;
	default:
		return t->size != 0 ? t->size : 1;
	}
}

/*
 * Is t a struct or union whose definition is still open (its closing brace
 * not yet reached)?  DTrace reads a member's type from the committed CTF
 * container, where a struct being defined still has size 0, so a struct
 * or union cannot contain itself (or an enclosing one) by value.
 */
static bool
dt_decl_sou_open(const dt_pcb_t *pcb, const dt_type_t *t)
{
	for (int i = 0; i < pcb->sou_depth; i++)
		if (pcb->sou_stack[i] == t)
			return true;
	return false;
}

void
dt_decl_sou_member(dt_pcb_t *pcb, dt_type_t *sou, dt_declspec_t *ds, dt_declarator_t *list)
{
	dt_type_t *base = dt_ds_type(pcb, ds);
	dt_member_t **lastp = &pcb->sou_last[pcb->sou_depth - 1];
	if (sou == NULL)
		sou = pcb->sou_stack[pcb->sou_depth - 1];

	for (dt_declarator_t *dd = list; dd != NULL; dd = dd->next) {
		const char *name;
		dt_type_t *t = dt_decl_type(pcb, base, dd, &name);
		dt_type_t *r = dt_type_resolve(t);
		dt_member_t *m = dt_zalloc(pcb, sizeof(*m));
		int bits = 0;

		const char *idname = name != NULL ? name : "(anon)";
		if (name != NULL && strchr(name, '`') != NULL)
			dt_error(pcb, 0, D_DECL_SCOPE, "D scoping operator may not be used in a member name (%s)", name);
		if (dt_dd_tuple(dd) != NULL)
			dt_error(pcb, 0, D_DECL_DYNOBJ, "cannot have dynamic member: %s", idname);
		if (dt_type_is_incomplete(t) || dt_decl_sou_open(pcb, r)) {
			char n1[256];
			dt_error(pcb, 0, D_DECL_INCOMPLETE, "incomplete struct/union/enum %s: %s",
				 dt_type_name(t, n1, sizeof(n1)), idname);
		}
		/* an array of no size (int a[];) may be a member of a struct, not of a union (dt_decl_member) */
		if (r->size == 0 && (r->kind != DT_TK_ARRAY || sou->kind != DT_TK_STRUCT))
			dt_error(pcb, 0, D_DECL_VOIDOBJ, "cannot have void member: %s", idname);
		if (dd->bitexpr != NULL) {
			dt_node_t *n = dt_cook(pcb, dd->bitexpr, 0);
			if (name == NULL && n->kind == DT_NODE_INT && n->value == 0)
				continue; /* an unnamed zero-width bit-field: DTrace ignores it */
			if (n->kind != DT_NODE_INT || n->value == 0 ||
			    ((int64_t)n->value < 0 && (n->flags & DT_NF_SIGNED)))
				dt_error(pcb, 0, D_DECL_BFCONST, "positive integral constant expression expected as bit-field size");
			/* an integer type itself: DTrace's dt_decl_member() wants CTF_K_INTEGER, not an enum */
			if (!dt_type_is_integer(t) || r->kind != DT_TK_INT)
				dt_error(pcb, 0, D_DECL_BFTYPE, "invalid type for bit-field: %s", idname);
			if (n->value > r->size * 8)
				dt_error(pcb, 0, D_DECL_BFSIZE, "bit-field too big for type: %s", idname);
			bits = (int)n->value;
		}
		/* libctf refuses a second member of the same name */
		if (name != NULL && dt_decl_member_dup(pcb, sou, name))
			dt_error(pcb, 0, D_UNKNOWN, "failed to define member '%s': Duplicate member name definition", name);
		m->name = name;
		m->type = t;
		m->bits = bits;
		/*
		 * DTrace's layout (libctf's ctf_add_member): a bit-field's type
		 * is an integer of its width in bytes rounded up to a power of
		 * two (fsize), aligned to that size.  A struct member starts at
		 * the first byte after the bits of the previous one (fields
		 * never share a byte) rounded up to its alignment, and the
		 * struct ends with the whole type of its last member, so
		 * struct { char c; long z:33; } is 16 bytes.  A union is as
		 * large as its largest member's type.
		 */
		uint64_t msize = r->size;
		if (bits > 0) {
			uint64_t bytes = ((uint64_t)bits + 7) / 8;
			for (msize = 1; msize < bytes; msize *= 2)
				;
		}
		if (sou->kind == DT_TK_UNION) {
			m->off = 0;
			if (msize > sou->size)
				sou->size = msize;
		} else {
			const dt_member_t *last = *lastp;
			uint64_t end = 0;
			if (last != NULL && last->bits > 0)
				end = (last->off * 8 + (uint64_t)last->bitoff + (uint64_t)last->bits + 7) / 8;
			else if (last != NULL)
				end = last->off + dt_type_resolve(last->type)->size;
			if (bits > 0) {
				uint64_t bitpos = (end + msize - 1) / msize * msize * 8;
				m->off = bitpos / (r->size * 8) * r->size;
				m->bitoff = (int)(bitpos - m->off * 8);
				sou->size = bitpos / 8 + msize;
			} else {
				uint64_t a = dt_decl_ctf_align(r, 0);
				m->off = (end + a - 1) / a * a;
				sou->size = m->off + r->size;
			}
		}
		if (r->align > sou->align)
			sou->align = r->align;
		if (*lastp == NULL)
			sou->members = m;
		else
			(*lastp)->next = m;
		*lastp = m;
	}
}

void
dt_decl_sou_end(dt_pcb_t *pcb, dt_type_t *sou)
{
	/*
	 * No padding after the last member: DTrace's libctf sizes a struct as
	 * the end of its last member (ctf_add_member), so struct { int a; char
	 * b; } is 5 bytes in D, and a union as its largest member.
	 */
	(void)sou;
	pcb->sou_depth--;
}

/* enum e: the definition, else a forward declaration (a module's definition comes later) */
dt_type_t *
dt_decl_enum_ref(dt_pcb_t *pcb, const char *tag)
{
	dt_ds_tag_check(pcb);
	dt_type_t *t = dt_type_tag(pcb, DT_TK_ENUM, tag);

	if (t == NULL) {
		t = dt_type_new(pcb, DT_TK_FWD, tag, 0);
		t->fwdkind = DT_TK_ENUM;
		dt_type_tag_add(pcb, t);
	}
	return t;
}

/*
 * enum e { ...: unlike a struct's, an enum's forward declaration is not
 * completed by a definition: DTrace asks libctf for the enum's enumerators,
 * and a forward declaration has none to give (ctf_enum_iter fails), so the
 * definition is a redeclaration.
 */
dt_type_t *
dt_decl_enum_begin(dt_pcb_t *pcb, const char *tag)
{
	dt_ds_tag_check(pcb);
	dt_type_t *t = tag != NULL ? dt_type_tag_d(pcb, DT_TK_ENUM, tag) : NULL;
	if (t != NULL)
		dt_error(pcb, 0, D_DECL_TYPERED, "type redeclared: enum %s", tag);
	t = dt_type_new(pcb, DT_TK_ENUM, tag, 4);
	if (tag != NULL) {
		dt_type_tag_add(pcb, t);
	}
	t->size = 4;
	t->align = 4;
	t->issigned = true;
	pcb->enum_cur = t;
	pcb->enum_last = NULL;
	pcb->enum_next = 0;
	return t;
}

/*
 * One enumerator, checked in DTrace's order: its value, then its name
 * within the enum (libctf refuses a second one), then against the other
 * identifiers.  Both name checks are hash lookups (pcb->builtins holds
 * every enumerator), and the member list is appended at its recorded end,
 * so an enum of n enumerators compiles in O(n).
 */
void
dt_decl_enumerator(dt_pcb_t *pcb, dt_type_t *e, const char *name, dt_node_t *val)
{
	dt_member_t *m;
	dt_ident_t *idp;

	if (e == NULL)
		e = pcb->enum_cur;
	if (strchr(name, '`') != NULL)
		dt_error(pcb, 0, D_DECL_SCOPE,
		         "D scoping operator may not be used in an enumerator name (%s)", name);
	if (val != NULL) {
		dt_node_t *n = dt_cook(pcb, val, 0);
		if (n->kind != DT_NODE_INT || !dt_type_is_integer(n->type))
			dt_error(pcb, 0, D_DECL_ENCONST, "enumerator '%s' must be assigned to an integral constant expression", name);
		pcb->enum_next = (int64_t)n->value;
		if (pcb->enum_next > INT32_MAX || pcb->enum_next < INT32_MIN)
			dt_error(pcb, 0, D_DECL_ENOFLOW, "enumerator '%s' value overflows INT_MAX (%d)",
				 name, INT32_MAX);
	} else {
		/* DTrace adds one to the previous value as an int: past INT_MAX it wraps */
		pcb->enum_next = (int32_t)(uint32_t)pcb->enum_next;
	}
	idp = dt_idtab_lookup(&pcb->builtins, name);
	if (idp != NULL && idp->kind == DT_IDENT_ENUM && idp->type == e &&
	    !(idp->flags & DT_IDFLG_BUILTIN))
		dt_error(pcb, 0, D_UNKNOWN,
		         "failed to define enumerator '%s': Duplicate member name definition",
		         name);
	if (idp != NULL || dt_idtab_lookup(&pcb->globals, name) != NULL)
		dt_error(pcb, 0, D_DECL_IDRED, "identifier redeclared: %s", name);
	m = dt_zalloc(pcb, sizeof(*m));
	m->name = name;
	m->value = pcb->enum_next++;
	m->type = e;
	if (pcb->enum_last == NULL)
		e->members = m;
	else
		pcb->enum_last->next = m;
	pcb->enum_last = m;
	idp = dt_idtab_insert(pcb, &pcb->builtins, name, DT_IDENT_ENUM, 0);
	idp->type = e;
	idp->value = m->value;
	dt_pragma_apply(pcb, idp);
}

void
dt_decl_enum_end(dt_pcb_t *pcb, dt_type_t *e)
{
	(void)e;
	pcb->enum_cur = NULL;
	pcb->enum_last = NULL;
}

/* ---- inline ---------------------------------------------------------------- */

/*
 * DTrace generates an inline's code from its one tree at each use; this
 * compiler copies the cooked tree into each use instead, so an inline
 * defined from others holds copies of their expansions, and a chain of
 * inlines each using the one before (a2 = a1 + x; a3 = a2 + x; ...) grows
 * as the square of its length, and doubles at each step when each uses the
 * one before twice.  A translator member is copied the same way into each
 * reference to it, so translators defined from others (member a of T2 uses
 * member a of T1 twice, ...) grow alike.  Two limits keep any program within
 * bounds where DTrace would run out of stack or memory: an inline's or
 * translator member's expanded expression may be nested no deeper than an
 * expression may be written (DT_EXPR_MAXDEPTH in dt_grammar.y), and the
 * copies made for a program's uses of inlines and translator members may
 * hold DT_INLINE_MAXNODES nodes in all.  Folded constants are one node, so
 * chains of constants (a2 = a1 + 1) never approach either.
 */
#define DT_INLINE_MAXDEPTH 1000
#define DT_INLINE_MAXNODES (1u << 20)

/* The deepest operator nesting (edges to the farthest leaf) and the node count of a tree. */
static void
dt_decl_measure(const dt_node_t *n, int depth, int *maxdepth, uint64_t *nodes)
{
	for (; n != NULL; n = n->list) {
		(*nodes)++;
		if (depth > *maxdepth)
			*maxdepth = depth;
		dt_decl_measure(n->left, depth + 1, maxdepth, nodes);
		dt_decl_measure(n->right, depth + 1, maxdepth, nodes);
		dt_decl_measure(n->cond, depth + 1, maxdepth, nodes);
		dt_decl_measure(n->args, depth + 1, maxdepth, nodes);
		dt_decl_measure(n->aggfun, depth + 1, maxdepth, nodes);
		dt_decl_measure(n->pred, depth + 1, maxdepth, nodes);
	}
}

/* Charges a copy of nodes nodes, made for a use of what (at node n), to the program's budget. */
static void
dt_decl_expand_charge(dt_pcb_t *pcb, const dt_node_t *n, uint64_t nodes, const char *what)
{
	pcb->inline_nodes += nodes;
	if (pcb->inline_nodes > DT_INLINE_MAXNODES)
		dnerror(pcb, n, D_SYNTAX,
			"program is too large once inlines and translators are expanded (more than %u nodes at %s)",
			DT_INLINE_MAXNODES, what);
}

void
dt_decl_inline_use(dt_pcb_t *pcb, const dt_node_t *n, const dt_ident_t *idp)
{
	dt_decl_expand_charge(pcb, n, idp->nnodes, idp->name);
}

void
dt_decl_xlate_use(dt_pcb_t *pcb, const dt_node_t *n, const dt_node_t *member)
{
	char what[300];
	int depth = 0;
	uint64_t nodes = 0;

	dt_decl_measure(member->left, 0, &depth, &nodes);
	snprintf(what, sizeof(what), "translator member %s", member->string);
	if (depth > DT_INLINE_MAXDEPTH)
		dnerror(pcb, n, D_SYNTAX,
			"%s is nested too deeply once translators are expanded (more than %d operators)", what,
			DT_INLINE_MAXDEPTH);
	dt_decl_expand_charge(pcb, n, nodes, what);
}

void
dt_decl_inline(dt_pcb_t *pcb, dt_declspec_t *ds, dt_declarator_t *dd, dt_node_t *expr)
{
	const char *name;
	dt_declarator_t *decl = dt_ds_ident(pcb, ds, dd), *arr = NULL;
	dt_type_t *t = dt_decl_type(pcb, dt_ds_type(pcb, ds), decl, &name);
	dt_node_t *e;
	dt_ident_t **params = NULL;
	int nparams = 0;

	if (ds->cls != DT_DC_NONE)
		dt_error(pcb, 0, D_DECL_BADCLASS, "specified storage class not appropriate for inline declaration");
	if (name == NULL)
		dt_error(pcb, 0, D_DECL_USELESS, "inline declaration requires a name");
	dt_ident_t *old = dt_idtab_lookup(&pcb->builtins, name);
	if (old == NULL)
		old = dt_idtab_lookup(&pcb->globals, name);
	if (old != NULL) {
		/* DTrace's inlines and enumerators are scalars flagged inline */
		bool isinline = old->kind == DT_IDENT_INLINE || old->kind == DT_IDENT_ENUM;
		dt_error(pcb, 0, D_DECL_IDRED, "identifier redefined: %s\n\t current: inline definition\n\tprevious: %s %s",
			 name, dt_idkind_name(old->kind == DT_IDENT_INLINE
						  ? (old->iparams != NULL ? DT_IDENT_ARRAY : DT_IDENT_SCALAR)
						  : old->kind),
			 isinline ? "inline" : "");
	}
	/*
	 * An inline array, inline T f[T1 a, T2 b] = e, as DTrace's
	 * dt_node_inline() has it: its value is T, computed from e with the
	 * parameters standing for the subscripts of each use.  An array with
	 * a dimension, or none, is not an inline.
	 */
	for (dt_declarator_t *d = decl; d != NULL; d = d->inner)
		if (d->kind == DT_DD_ARRAY && arr == NULL)
			arr = d;
	if (arr != NULL && !arr->tuple && arr->dim == NULL)
		dt_error(pcb, 0, D_DECL_ARRNULL, "inline declaration requires array tuple signature: %s", name);
	if (arr != NULL && !arr->tuple)
		dt_error(pcb, 0, D_DECL_ARRNULL, "inline declaration cannot be of scalar array type: %s", name);
	if (arr != NULL) {
		for (dt_node_t *p = arr->params; p != NULL; p = p->list)
			nparams++;
		params = dt_zalloc(pcb, sizeof(dt_ident_t *) * (size_t)(nparams + 1));
		int i = 0;
		for (dt_node_t *p = arr->params; p != NULL; p = p->list, i++) {
			if (p->string == NULL)
				continue; /* an anonymous parameter */
			dt_ident_t *pid = dt_zalloc(pcb, sizeof(*pid));
			pid->name = p->string;
			pid->kind = DT_IDENT_SCALAR;
			pid->flags = DT_IDFLG_DECL;
			pid->type = p->type;
			pid->attr = dt_attr_def;
			params[i] = pid;
		}
	}
	if (dt_type_is_void(t))
		dt_error(pcb, 0, D_DECL_VOIDOBJ, "cannot declare void inline: %s", name);
	if (dt_type_resolve(t) != NULL && dt_type_resolve(t)->kind == DT_TK_FWD) {
		char n1[256];
		dt_error(pcb, 0, D_DECL_INCOMPLETE, "incomplete struct/union/enum %s: %s",
			 dt_type_name(t, n1, sizeof(n1)), name);
	}
	dt_ident_t **oparams = pcb->iparams;
	int onparams = pcb->niparams;
	if (arr != NULL) {
		pcb->iparams = params;
		pcb->niparams = nparams;
	}
	e = dt_cook(pcb, expr, DT_IDFLG_REF);
	pcb->iparams = oparams;
	pcb->niparams = onparams;
	dt_ident_t *xl = e->kind == DT_NODE_OP2 && e->op == DT_TOK_XLATE ? dt_node_xlator(e) : NULL;
	if (xl != NULL) {
		/*
		 * An inline of a translation (curpsinfo's kind) names the
		 * translator's output struct, through a pointer or not, as
		 * DTrace's dt_cook_inline() compares them; each use is the
		 * translation in the declared form (dt_cook_ident).
		 */
		dt_type_t *l = dt_type_resolve(t), *r = dt_type_resolve(xl->type);
		if (l != NULL && l->kind == DT_TK_PTR)
			l = dt_type_resolve(l->ref);
		if (l == NULL || r == NULL || !dt_type_compat(l, r)) {
			char n1[256], n2[256];
			dt_error(pcb, 0, D_OP_INCOMPAT, "inline %s definition uses incompatible types: \"%s\" = \"%s\"",
				 name, l != NULL ? dt_type_name(l, n1, sizeof(n1)) : "",
				 dt_type_name(r, n2, sizeof(n2)));
		}
	} else if (!(dt_type_is_scalar(t) && dt_type_is_scalar(e->type)) &&
	    !(dt_type_is_string(t) && (dt_node_is_string(e) || dt_type_is_pointer(e->type))) &&
	    !dt_type_compat(t, e->type)) {
		char n1[256], n2[256];
		dt_error(pcb, 0, D_OP_INCOMPAT, "inline %s definition uses incompatible types: \"%s\" = \"%s\"",
			 name, dt_type_name(t, n1, sizeof(n1)), dt_type_name(e->type, n2, sizeof(n2)));
	}
	int depth = 0;
	uint64_t nodes = 0;
	dt_decl_measure(e, 0, &depth, &nodes);
	if (depth > DT_INLINE_MAXDEPTH)
		dt_error(pcb, 0, D_SYNTAX, "inline %s is nested too deeply once inlines are expanded (more than %d operators)",
			 name, DT_INLINE_MAXDEPTH);
	dt_ident_t *idp = dt_idtab_insert(pcb, &pcb->builtins, name, DT_IDENT_INLINE, 0);
	idp->type = t;
	idp->inline_expr = e;
	idp->nnodes = nodes;
	if (arr != NULL) {
		int i = 0;
		idp->iparams = params;
		idp->nkeys = nparams;
		idp->keys = dt_zalloc(pcb, sizeof(dt_type_t *) * (size_t)(nparams + 1));
		for (dt_node_t *p = arr->params; p != NULL; p = p->list)
			idp->keys[i++] = p->type;
	}
	/* DTrace's dt_node_inline(): the expression's attributes, a #pragma's once one names it */
	idp->attr = dt_attr_min(dt_attr_def, e->attr);
	dt_pragma_apply(pcb, idp);
	dt_node_t *in = dt_node_new(pcb, DT_NODE_INLINE); /* DTrace's inline node, for -x tree */
	in->ident = idp;
	dt_prog_add(pcb, in);
}

/* ---- translators ---------------------------------------------------------------- */

/*
 * A translator is kept as an identifier named "xlate:<to>:<from>" with the
 * member expressions; xlate<T>(e) and T-typed member references expand the
 * member's expression with the argument bound to e.
 */
/*
 * translator to < from name > { member = expression; ... };
 * Checked in DTrace's order: a second translator between the same types,
 * then an output type that is incomplete or not a struct or union, then
 * each member (dt_xlator_cook).  Errors name the line the declaration ends.
 */
void
dt_decl_xlator(dt_pcb_t *pcb, dt_type_t *to, dt_type_t *from, const char *argname, dt_node_t *members)
{
	char n1[256], n2[256];
	dt_type_t *r = dt_type_resolve(to);
	dt_node_t src;

	if (pcb->scanner != NULL)
		pcb->lineno = dt_lex_lineno(pcb);
	memset(&src, 0, sizeof(src));
	src.kind = DT_NODE_TYPE;
	src.type = from;
	if (dt_xlator_lookup(pcb, &src, to, true) != NULL)
		dt_error(pcb, 0, D_XLATE_REDECL, "translator from %s to %s has already been declared",
			 dt_type_name(from, n1, sizeof(n1)), dt_type_name(to, n2, sizeof(n2)));
	if (r != NULL && r->kind == DT_TK_FWD)
		dt_error(pcb, 0, D_XLATE_SOU, "incomplete struct/union/enum %s", dt_type_name(to, n1, sizeof(n1)));
	if (r == NULL || (r->kind != DT_TK_STRUCT && r->kind != DT_TK_UNION))
		dt_error(pcb, 0, D_XLATE_SOU, "translator output type must be a struct or union");

	dt_ident_t *idp = dt_zalloc(pcb, sizeof(*idp));
	idp->name = "translator";
	idp->kind = DT_IDENT_XLATOR;
	idp->type = to;
	idp->keys = dt_zalloc(pcb, sizeof(dt_type_t *));
	idp->keys[0] = from;
	idp->nkeys = 1;
	idp->inline_expr = members;
	idp->line = pcb->lineno;
	idp->xlarg = dt_zalloc(pcb, sizeof(*idp->xlarg));
	idp->xlarg->name = argname;
	idp->xlarg->kind = DT_IDENT_SCALAR;
	idp->xlarg->flags = DT_IDFLG_XLARG;
	idp->xlarg->type = from;
	idp->xlarg->attr = dt_attr_def;
	/*
	 * DTrace's dt_xlator_create() applies the pragmas pending for the name
	 * "translator" (#pragma D binding "1.0" translator) and so uses them
	 * up; dt_cook_xlator() then gives it its members' attributes.
	 */
	dt_pragma_apply(pcb, idp);
	dt_xlator_cook(pcb, idp);
	{
		/* DTrace's translator node: Stable/Stable/Common, checked against -x amin */
		char what[600];
		dt_node_t xn;
		memset(&xn, 0, sizeof(xn));
		xn.line = pcb->lineno;
		snprintf(what, sizeof(what), "translator <%s> (%s)", dt_type_name(to, n1, sizeof(n1)),
			 dt_type_name(from, n2, sizeof(n2)));
		dt_node_attr_assign_named(pcb, &xn, dt_attr_def, what);
	}

	dt_ident_t **pp = &pcb->xlators;
	while (*pp != NULL)
		pp = &(*pp)->next;
	*pp = idp;
	dt_node_t *xn = dt_node_new(pcb, DT_NODE_XLATOR); /* DTrace's translator node, for -x tree */
	xn->ident = idp;
	dt_prog_add(pcb, xn);
}

/*
 * provider NAME { probe P(native types) [: (translated types)]; ... };
 * Recorded in the program for dtrace -h, checked as DTrace's dt_node_probe,
 * dt_node_provider (when parsed) and dt_cook_provider (when compiled) check them.  DTrace names a declared
 * probe "::" and its declared name with each `__' made `-' (strhyphenate);
 * its messages use that name (p:::a-b).
 */
static char *
dt_decl_probename(dt_pcb_t *pcb, const char *s)
{
	char *name = dt_zalloc(pcb, strlen(s) + 3), *q = name;

	*q++ = ':';
	*q++ = ':';
	while (*s != '\0') {
		if (s[0] == '_' && s[1] == '_') {
			*q++ = '-';
			s += 2;
		} else {
			*q++ = *s++;
		}
	}
	*q = '\0';
	return name;
}

/*
 * DTrace's dt_node_probe: the name's checks, the input prototype (void and
 * unnamed parameters allowed), the output one (its names must be input
 * names), at most UINT8_MAX parameters each.  The node keeps the declared
 * name in string, the input list in args, the output list in left (NULL
 * when there is none or it is empty: the output arguments are then the
 * input ones, as dt_probe_create makes them), the counts in value and nkeys.
 */
dt_node_t *
dt_decl_probe(dt_pcb_t *pcb, const char *s, dt_node_t *nargs, dt_node_t *xargs)
{
	char *name = dt_decl_probename(pcb, s);
	dt_node_t *n;
	int nargc, xargc;

	if (strchr(name, '`') != NULL)
		dt_error(pcb, 0, D_PROV_BADNAME, "probe name may not contain scoping operator: %s", name);
	if (strlen(name) - 2 >= DTRACE_NAMELEN)
		dt_error(pcb, 0, D_PROV_BADNAME, "probe name may not exceed %d characters: %s", DTRACE_NAMELEN - 1,
			 name);
	n = dt_node_new(pcb, DT_NODE_MEMBER);
	n->string = s;
	n->args = nargs;
	n->left = xargs;
	nargc = dt_decl_prototype(pcb, nargs, nargs, "probe input", DT_DP_VOID | DT_DP_ANON);
	xargc = dt_decl_prototype(pcb, xargs, nargs, "probe output", DT_DP_VOID);
	if (nargc > UINT8_MAX)
		dt_error(pcb, 0, D_PROV_PRARGLEN, "probe %s input prototype exceeds %u parameters: %d params used", name,
			 (unsigned)UINT8_MAX, nargc);
	if (xargc > UINT8_MAX)
		dt_error(pcb, 0, D_PROV_PRARGLEN, "probe %s output prototype exceeds %u parameters: %d params used",
			 name, (unsigned)UINT8_MAX, xargc);
	n->value = (uint64_t)nargc;
	n->nkeys = xargc;
	return n;
}

/* the C type names of a list's first count parameters (compile-time copies) */
static char **
dt_decl_typenames(dt_pcb_t *pcb, dt_node_t *list, int count)
{
	char **v = dt_zalloc(pcb, ((size_t)count + 1) * sizeof(char *));
	int i = 0;

	for (dt_node_t *t = list; t != NULL && i < count; t = t->list, i++) {
		char buf[256];
		v[i] = dt_strdup(pcb, dt_node_type_name(t, buf, sizeof(buf)));
	}
	return v;
}

/* a lasting copy of a type name list, for the program (dtrace -h) */
static char **
dt_decl_keepnames(dt_pcb_t *pcb, char *const *v, int count)
{
	char **k = calloc((size_t)count + 1, sizeof(char *));

	if (k == NULL)
		dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
	for (int i = 0; i < count; i++) {
		if ((k[i] = strdup(v[i])) == NULL) {
			while (i-- > 0)
				free(k[i]);
			free(k);
			dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
		}
	}
	return k;
}

static void
dt_decl_probe_free(dt_cprobe_decl_t *pr)
{
	for (int k = 0; k < pr->nargs; k++)
		free(pr->args[k]);
	for (int k = 0; k < pr->nxargs; k++)
		free(pr->xargs[k]);
	free(pr->args);
	free(pr->xargs);
	free(pr->map);
	free(pr->name);
}

/*
 * The input argument each output argument is, as dt_decl_probe_xlate
 * pairs them: the input of its name when it has one, else the one in its
 * place (the argument mapping of dtrace -G's DOF).
 */
static unsigned char *
dt_decl_argmap(dt_pcb_t *pcb, const dt_node_t *p, int nxargs)
{
	unsigned char *map = calloc((size_t)nxargs + 1, 1);
	int i = 0;

	if (map == NULL)
		dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
	for (dt_node_t *x = p->left; i < nxargs; i++, x = x != NULL ? x->list : NULL) {
		int j = 0;

		if (x != NULL && x->string != NULL) {
			const dt_node_t *src = p->args;

			while (src != NULL && (src->string == NULL || strcmp(src->string, x->string) != 0))
				src = src->list, j++;
			if (src == NULL)
				j = i;
		} else {
			j = i;
		}
		map[i] = (unsigned char)(j <= UINT8_MAX ? j : 0);
	}
	return map;
}

/* dt_node_provider_cmp_argv: a redeclared probe's argument count and types */
static void
dt_decl_probe_cmpargv(dt_pcb_t *pcb, const dt_node_t *p, const char *prov, const char *pname, const char *kind,
		      int oc, char *const *ov, int nc, char *const *nv)
{
	if (oc != nc)
		dnerror(pcb, p, D_PROV_INCOMPAT,
			"probe %s:%s %s prototype mismatch:\n\t current: %d arg%s\n\tprevious: %d arg%s", prov, pname,
			kind, nc, nc != 1 ? "s" : "", oc, oc != 1 ? "s" : "");
	for (int i = 0; i < oc; i++) {
		if (strcmp(ov[i], nv[i]) != 0)
			dnerror(pcb, p, D_PROV_INCOMPAT,
				"probe %s:%s %s prototype argument #%d mismatch:\n\t current: %s\n\tprevious: %s", prov,
				pname, kind, i + 1, nv[i], ov[i]);
	}
}

/*
 * The host's probe NAME, as DTrace's dt_probe_lookup finds a probe its
 * provider has not declared: dtrace_str2desc() of "::NAME" leaves the
 * provider empty, so the first probe of that name of any provider answers
 * (PROV is unused).  Its typed arguments (native and translated) are as
 * dt_probe_discover makes them.  Returns false when the host has none.
 */
static bool
dt_decl_host_probe(dt_pcb_t *pcb, const char *prov, const char *name, dt_cprobe_decl_t *pr)
{
	const dt_cops_t *ops = &pcb->opts->ops;
	dtrace_probedesc_t pd, first;

	memset(pr, 0, sizeof(*pr));
	if (ops->probe_match == NULL)
		return false;
	memset(&pd, 0, sizeof(pd));
	memset(&first, 0, sizeof(first));
	(void)prov;
	snprintf(pd.dtpd_name, sizeof(pd.dtpd_name), "%s", name);
	if (ops->probe_match(ops->arg, &pd, &first) <= 0)
		return false;
	pr->args = dt_zalloc(pcb, (UINT8_MAX + 1) * sizeof(char *));
	pr->xargs = dt_zalloc(pcb, (UINT8_MAX + 1) * sizeof(char *));
	for (int i = 0; ops->probe_arg != NULL && i <= UINT8_MAX; i++) {
		dtrace_argdesc_t ad;
		memset(&ad, 0, sizeof(ad));
		ad.dtargd_id = first.dtpd_id;
		ad.dtargd_ndx = i;
		if (ops->probe_arg(ops->arg, &ad) != 0 || ad.dtargd_ndx == DTRACE_ARGNONE)
			break;
		pr->xargs[i] = dt_strdup(pcb, ad.dtargd_xlate[0] != '\0' ? ad.dtargd_xlate : ad.dtargd_native);
		pr->nxargs = i + 1;
		if (ad.dtargd_mapping >= pr->nargs && ad.dtargd_mapping <= UINT8_MAX) {
			pr->nargs = ad.dtargd_mapping + 1;
		}
		if (ad.dtargd_mapping <= UINT8_MAX)
			pr->args[ad.dtargd_mapping] = dt_strdup(pcb, ad.dtargd_native);
	}
	for (int i = 0; i < pr->nargs; i++)
		if (pr->args[i] == NULL)
			pr->args[i] = dt_strdup(pcb, "");
	/* a probe without arguments has one empty list, as dt_probe_create makes it */
	pr->hasx = pr->nxargs != 0 || pr->nargs != 0;
	return true;
}

/*
 * DTrace's dt_cook_probe: each output argument needs a translator from the
 * input argument it maps to (a named one: the input of that name; else the
 * one in its place) or a type that input can be passed as.
 */
static void
dt_decl_probe_xlate(dt_pcb_t *pcb, const dt_node_t *p, const char *prov, const char *pname)
{
	int i = 0;

	if (p->left == NULL)
		return;
	for (dt_node_t *x = p->left; x != NULL && i < p->nkeys; x = x->list, i++) {
		dt_node_t *src = p->args;
		int j = 0;
		char n1[256], n2[256];

		if (x->string != NULL) {
			while (src != NULL && (src->string == NULL || strcmp(src->string, x->string) != 0))
				src = src->list, j++;
		} else {
			while (src != NULL && j < i)
				src = src->list, j++;
		}
		if (src == NULL || (j == 0 && src->list == NULL && src->type != NULL && dt_type_is_void(src->type)))
			continue; /* no input argument there: DTrace reads past its list */
		if (dt_xlator_lookup(pcb, src, x->type, false) != NULL)
			continue;
		if (dt_node_is_argcompat(src, x))
			continue; /* no translator defined and none required */
		dnerror(pcb, p, D_PROV_PRXLATOR, "translator for %s:%s output argument #%d from %s to %s is not defined",
			prov, pname, i + 1, dt_node_type_name(src, n1, sizeof(n1)),
			dt_node_type_name(x, n2, sizeof(n2)));
	}
}

void
dt_decl_provider(dt_pcb_t *pcb, const char *name, dt_node_t *probes)
{
	dt_cprog_t *prog = pcb->prog;
	dt_cprovider_t *pv = NULL;
	bool host = false;
	size_t i, len = strlen(name);

	/* DTrace's provider node, for -x tree: a redeclaration of one known or declared before */
	dt_node_t *pn = dt_node_new(pcb, DT_NODE_DECL);
	pn->string = name;
	pn->args = probes;
	if (strchr(name, '`') != NULL)
		dnerror(pcb, pn, D_PROV_BADNAME, "provider name may not contain scoping operator: %s", name);
	if (len >= DTRACE_PROVNAMELEN)
		dnerror(pcb, pn, D_PROV_BADNAME, "provider name may not exceed %d characters: %s",
			DTRACE_PROVNAMELEN - 1, name);
	if (len > 0 && isdigit((unsigned char)name[len - 1]))
		dnerror(pcb, pn, D_PROV_BADNAME, "provider name may not end with a digit: %s", name);

	for (i = 0; i < prog->nproviders; i++)
		if (strcmp(prog->providers[i].name, name) == 0)
			pv = &prog->providers[i];
	/* one the host has: DTrace finds it through dtrace(7D) (dt_provider_lookup) */
	if (pv == NULL && (pcb->opts->ops.provider_attr != NULL || pcb->opts->ops.probe_match != NULL))
		host = dt_provider_known(pcb, name);
	pn->value = pv != NULL || dt_provider_known(pcb, name);
	dt_prog_add(pcb, pn);
	if (pv == NULL && !host) {
		dt_cprovider_t *a = realloc(prog->providers, (prog->nproviders + 1) * sizeof(*a));
		if (a == NULL)
			dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
		prog->providers = a;
		pv = &a[prog->nproviders];
		memset(pv, 0, sizeof(*pv));
		if ((pv->name = strdup(name)) == NULL)
			dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
		prog->nproviders++;
		pn->value = 0;
	}
	pn->nkeys = host;
}

/*
 * DTrace's dt_cook_provider, run when dt_compile() reaches the provider in
 * the program (after the whole program is parsed, between its clauses): a
 * provider declared again, or one the host has, must declare the probes it
 * has as it has them; otherwise each probe is new.  Then each output
 * argument's translation is checked (dt_cook_probe).
 */
void
dt_decl_provider_cook(dt_pcb_t *pcb, dt_node_t *pn)
{
	dt_cprog_t *prog = pcb->prog;
	dt_cprovider_t *pv = NULL;
	const char *name = pn->string;
	bool host = pn->nkeys != 0, provred = pn->value != 0;
	size_t i;

	for (i = 0; i < prog->nproviders; i++)
		if (strcmp(prog->providers[i].name, name) == 0)
			pv = &prog->providers[i];
	if (pv == NULL && !host)
		return;
	for (dt_node_t *p = pn->args; p != NULL; p = p->list) {
		const char *pname = dt_decl_probename(pcb, p->string);
		dt_cprobe_decl_t np, hp, *old = NULL;
		bool found = false; /* old is the host's probe, for a provider the program declared */

		memset(&np, 0, sizeof(np));
		np.nargs = (int)p->value;
		np.args = dt_decl_typenames(pcb, p->args, np.nargs);
		np.hasx = p->left != NULL;
		np.nxargs = np.hasx ? p->nkeys : np.nargs;
		np.xargs = dt_decl_typenames(pcb, np.hasx ? p->left : p->args, np.nxargs);
		if (host) {
			if (dt_decl_host_probe(pcb, name, pname + 2, &hp))
				old = &hp;
		} else {
			for (i = 0; i < pv->nprobes; i++)
				if (strcmp(pv->probes[i].name, pname + 2) == 0)
					old = &pv->probes[i];
			/* not declared before: DTrace asks the host for any probe of that name */
			if (old == NULL && provred && dt_decl_host_probe(pcb, name, pname + 2, &hp)) {
				old = &hp;
				found = true;
			}
		}
		if (old != NULL && provred) {
			/* dt_node_provider_cmp */
			dt_decl_probe_cmpargv(pcb, p, name, pname, "output", old->nxargs, old->xargs, np.nxargs,
					      np.xargs);
			if (old->hasx && np.hasx)
				dt_decl_probe_cmpargv(pcb, p, name, pname, "input", old->nargs, old->args, np.nargs,
						      np.args);
			if (!old->hasx && np.hasx && host)
				dnerror(pcb, p, D_PROV_INCOMPAT,
					"provider interface mismatch: %s\n\t current: probe %s:%s has an output "
					"prototype\n\tprevious: probe %s:%s has no output prototype",
					name, name, pname, name, pname);
		} else if (old == NULL && provred) {
			dnerror(pcb, p, D_PROV_INCOMPAT,
				"provider interface mismatch: %s\n\t current: probe %s:%s defined\n\tprevious: probe %s:%s "
				"not defined",
				name, name, pname, name, pname);
		} else if (old != NULL) {
			dnerror(pcb, p, D_PROV_PRDUP, "probe redeclared: %s:%s", name, pname);
		}
		dt_decl_probe_xlate(pcb, p, name, pname);
		if (host || (old != NULL && !found && !(!old->hasx && np.hasx)))
			continue; /* the interface declared before stays */
		if (found)
			old = NULL; /* the provider now has the probe, as the host's arguments declare it */
		/* a new probe, or one now declared with an output prototype replacing it */
		dt_cprobe_decl_t kp = np;
		kp.args = dt_decl_keepnames(pcb, np.args, np.nargs);
		kp.xargs = dt_decl_keepnames(pcb, np.xargs, np.nxargs);
		kp.map = dt_decl_argmap(pcb, p, np.nxargs);
		if ((kp.name = strdup(pname + 2)) == NULL)
			dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
		if (old != NULL) {
			dt_decl_probe_free(old);
			*old = kp;
		} else {
			dt_cprobe_decl_t *a = realloc(pv->probes, (pv->nprobes + 1) * sizeof(*a));
			if (a == NULL) {
				dt_decl_probe_free(&kp);
				dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
			}
			pv->probes = a;
			a[pv->nprobes++] = kp;
		}
	}
}
