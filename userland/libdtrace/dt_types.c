/*
 * dt_types.c: the D type system.
 *
 * Types are the C types of an LP64 target (ILP32 under dtrace -32, as
 * DTrace's data models: long and pointers of 4 bytes) plus D's `string'.  Each
 * compilation starts with D's built-in names (the C base types, the
 * <stdint.h> names, size_t, uintptr_t, string...) and adds the program's
 * typedefs, structs, unions and enums.  Types read from CTF or DWARF of a
 * traced program are meant to be created through the same constructors (with
 * isuser set), so the checker and code generator never see where a type
 * came from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_cg.h"
#include "dt_modtypes.h"
#include "dt_parse.h"

dt_type_t *
dt_type_new(dt_pcb_t *pcb, dt_tkind_t kind, const char *name, uint64_t size)
{
	dt_type_t *t = dt_zalloc(pcb, sizeof(*t));
	t->kind = kind;
	t->name = name != NULL ? dt_strdup(pcb, name) : NULL;
	t->size = size;
	t->align = size >= 8 ? 8 : size == 0 ? 1 : (uint32_t)size;
	return t;
}

dt_type_t *
dt_type_resolve(dt_type_t *t)
{
	while (t != NULL && t->kind == DT_TK_TYPEDEF)
		t = t->ref;
	return t;
}

/*
 * D's named types (pcb->types: base types and typedefs) and tags (pcb->tags)
 * are lists, newest first, with one hash index over both so that a program
 * of thousands of typedefs or structs stays linear.  Typedef and base type
 * names are one name space and the struct, union and enum tags one each
 * (a forward declaration in its kind's); the index maps each name of a
 * space to its newest type, the one a walk of the list would find.
 */
static dt_tkind_t
dt_type_space(const dt_type_t *t)
{
	switch (t->kind) {
	case DT_TK_STRUCT:
	case DT_TK_UNION:
	case DT_TK_ENUM:
		return t->kind;
	case DT_TK_FWD:
		return t->fwdkind;
	default:
		return DT_TK_TYPEDEF;
	}
}

static uint32_t
dt_type_hash(dt_tkind_t space, const char *name)
{
	return dt_idtab_strhash(name) ^ ((uint32_t)space * 0x9e3779b9u);
}

/* The slot of (space, name): its entry, or the empty slot where it goes. */
static dt_type_t **
dt_type_slot(dt_pcb_t *pcb, dt_tkind_t space, const char *name)
{
	uint32_t mask = pcb->tisize - 1;
	uint32_t i = dt_type_hash(space, name) & mask;

	for (; pcb->tindex[i] != NULL; i = (i + 1) & mask)
		if (dt_type_space(pcb->tindex[i]) == space && strcmp(pcb->tindex[i]->name, name) == 0)
			break;
	return &pcb->tindex[i];
}

/* Index t (named) as the newest of its name, growing the index at half full. */
static void
dt_type_index(dt_pcb_t *pcb, dt_type_t *t)
{
	dt_type_t **slot;

	/* declared in a file cpp included (a line marker named it) */
	t->incdefs = pcb->cppbuf != NULL && pcb->filetag != NULL;
	if (2 * (pcb->ticount + 1) > pcb->tisize) {
		uint32_t size = pcb->tisize != 0 ? 2 * pcb->tisize : 256;
		dt_type_t *lists[2] = {pcb->types, pcb->tags};

		pcb->tindex = dt_zalloc(pcb, size * sizeof(dt_type_t *));
		pcb->tisize = size;
		pcb->ticount = 0;
		/* newest first: keep the first entry of each name */
		for (int l = 0; l < 2; l++) {
			for (dt_type_t *u = lists[l]; u != NULL; u = u->next) {
				if (u->name == NULL || *(slot = dt_type_slot(pcb, dt_type_space(u), u->name)) != NULL)
					continue;
				*slot = u;
				pcb->ticount++;
			}
		}
	}
	slot = dt_type_slot(pcb, dt_type_space(t), t->name);
	if (*slot == NULL)
		pcb->ticount++;
	*slot = t;
}

void
dt_type_define(dt_pcb_t *pcb, const char *name, dt_type_t *t)
{
	dt_type_t *td = dt_type_new(pcb, DT_TK_TYPEDEF, name, t->size);
	td->ref = t;
	td->align = t->align;
	td->issigned = t->issigned;
	td->next = pcb->types;
	pcb->types = td;
	dt_type_index(pcb, td);
}

static dt_type_t *
dt_type_base(dt_pcb_t *pcb, dt_tkind_t kind, const char *name, uint64_t size, bool sign)
{
	dt_type_t *t = dt_type_new(pcb, kind, name, size);
	t->issigned = sign;
	t->next = pcb->types;
	pcb->types = t;
	dt_type_index(pcb, t);
	return t;
}

void
dt_type_tag_add(dt_pcb_t *pcb, dt_type_t *t)
{
	t->next = pcb->tags;
	pcb->tags = t;
	dt_type_index(pcb, t);
}

dt_type_t *
dt_type_lookup_d(dt_pcb_t *pcb, const char *name)
{
	return pcb->tisize != 0 ? *dt_type_slot(pcb, DT_TK_TYPEDEF, name) : NULL;
}

/*
 * Is t a type of DTrace's "C" container (the C intrinsic types and those of
 * headers cpp included) rather than of "D" (D's typedefs, string, and what
 * programs and libraries declare)?
 */
bool
dt_type_is_cdefs(const dt_pcb_t *pcb, const dt_type_t *t)
{
	for (const dt_type_t *u = pcb->intrinsic; u != NULL; u = u->next) {
		if (u == t)
			return t->kind != DT_TK_TYPEDEF && t->kind != DT_TK_STRING && t->kind != DT_TK_DYN;
	}
	return t->incdefs;
}

/*
 * DTrace's two containers are modules named "D" and "C" too: "D`name" is a
 * type of "D", which imports "C" and so reaches every type D knows, and
 * "C`name" one of "C" only.  The unscoped name, or NULL if name has no such
 * scope; *cdefs tells which.
 */
static const char *
dt_type_dscope(const char *name, bool *cdefs)
{
	if ((name[0] != 'D' && name[0] != 'C') || name[1] != '`' || name[2] == '\0' || strchr(name + 2, '`') != NULL)
		return NULL;
	*cdefs = name[0] == 'C';
	return name + 2;
}

/* D's names first, then the modules' (dt_modtypes.h): DTrace's lookup order. */
dt_type_t *
dt_type_lookup(dt_pcb_t *pcb, const char *name)
{
	const char *n;
	bool cdefs;
	dt_type_t *t;

	if ((n = dt_type_dscope(name, &cdefs)) != NULL) {
		t = dt_type_lookup_d(pcb, n);
		return t != NULL && (!cdefs || dt_type_is_cdefs(pcb, t)) ? t : NULL;
	}
	t = dt_type_lookup_d(pcb, name);
	return t != NULL ? t : dt_modtypes_lookup(pcb, name);
}

/*
 * Struct, union and enum tags are three name spaces, as in CTF (and C): a
 * forward declaration stands for one kind, and a tag's definition completes
 * only a forward declaration of its kind.  kind DT_TK_FWD finds any.
 */
dt_type_t *
dt_type_tag_d(dt_pcb_t *pcb, dt_tkind_t kind, const char *tag)
{
	if (kind != DT_TK_FWD)
		return pcb->tisize != 0 ? *dt_type_slot(pcb, kind, tag) : NULL;
	for (dt_type_t *t = pcb->tags; t != NULL; t = t->next)
		if (t->name != NULL && strcmp(t->name, tag) == 0)
			return t;
	return NULL;
}

/* D's tags first, then a module's definition (also for a tag D only declared). */
dt_type_t *
dt_type_tag(dt_pcb_t *pcb, dt_tkind_t kind, const char *tag)
{
	const char *n;
	bool cdefs;
	dt_type_t *t, *m;

	if ((n = dt_type_dscope(tag, &cdefs)) != NULL) {
		t = dt_type_tag_d(pcb, kind, n);
		return t != NULL && (!cdefs || dt_type_is_cdefs(pcb, t)) ? t : NULL;
	}
	t = dt_type_tag_d(pcb, kind, tag);

	if (t != NULL && t->kind != DT_TK_FWD)
		return t;
	m = dt_modtypes_tag(pcb, kind, tag);
	return m != NULL ? m : t;
}

dt_type_t *
dt_type_ptr(dt_pcb_t *pcb, dt_type_t *t)
{
	if (t->ptrto == NULL) {
		dt_type_t *p = dt_type_new(pcb, DT_TK_PTR, NULL, pcb->ptrsize);
		p->ref = t;
		t->ptrto = p;
	}
	return t->ptrto;
}

/*
 * A pointer of a module's type data, of that data's own size: a process's
 * types keep their layout whatever the D data model (DTrace's CTF
 * containers each have theirs).
 */
dt_type_t *
dt_type_ptr_sized(dt_pcb_t *pcb, dt_type_t *t, uint64_t size)
{
	if (size == 0 || size == pcb->ptrsize)
		return dt_type_ptr(pcb, t);
	dt_type_t *p = dt_type_new(pcb, DT_TK_PTR, NULL, size);
	p->ref = t;
	return p;
}

dt_type_t *
dt_type_array(dt_pcb_t *pcb, dt_type_t *t, uint64_t n)
{
	dt_type_t *a = dt_type_new(pcb, DT_TK_ARRAY, NULL, t->size * n);
	a->ref = t;
	a->nelems = n;
	a->align = t->align;
	return a;
}

dt_type_t *
dt_type_int(dt_pcb_t *pcb, uint64_t size, bool issigned)
{
	switch (size) {
	case 1: return issigned ? pcb->t_char : pcb->t_uchar;
	case 2: return issigned ? pcb->t_short : pcb->t_ushort;
	case 4: return issigned ? pcb->t_int : pcb->t_uint;
	default:
		/* 8 bytes: long where it has them (LP64), as before the data models */
		if (pcb->t_long->size == 8)
			return issigned ? pcb->t_long : pcb->t_ulong;
		return issigned ? pcb->t_llong : pcb->t_ullong;
	}
}

static size_t
dt_type_name_r(const dt_type_t *t, char *buf, size_t len, const char *suffix)
{
	char tmp[512];
	/* as CTF spells declarators: a blank between a base type and "[n]", "()" or "(*)" */
	const char *sep = suffix[0] == '[' || suffix[0] == '(' ? " " : "";
	if (t == NULL)
		return (size_t)snprintf(buf, len, "<untyped>%s%s", sep, suffix);
	switch (t->kind) {
	case DT_TK_PTR:
		if (t->ref != NULL && t->ref->kind == DT_TK_FUNC) {
			snprintf(tmp, sizeof(tmp), "(*)%s", suffix);
			return dt_type_name_r(t->ref, buf, len, tmp);
		}
		if (t->ref != NULL && t->ref->kind == DT_TK_ARRAY) {
			snprintf(tmp, sizeof(tmp), "(*)%s", suffix);
			return dt_type_name_r(t->ref, buf, len, tmp);
		}
		{
			/* "char *" then "char **" (no blank between stars) */
			char inner[512];
			dt_type_name_r(t->ref, inner, sizeof(inner), "");
			size_t n = strlen(inner);
			if (n > 0 && inner[n - 1] == '*')
				return (size_t)snprintf(buf, len, "%s*%s", inner, suffix);
			return (size_t)snprintf(buf, len, "%s *%s", inner, suffix);
		}
	case DT_TK_ARRAY:
		snprintf(tmp, sizeof(tmp), "%s[%llu]", suffix, (unsigned long long)t->nelems);
		return dt_type_name_r(t->ref, buf, len, tmp);
	case DT_TK_FUNC:
		/* CTF names a function type without its parameters: "int ()", "int (*)()" */
		snprintf(tmp, sizeof(tmp), "%s()", suffix);
		return dt_type_name_r(t->ref, buf, len, tmp);
	case DT_TK_STRUCT:
	case DT_TK_UNION:
	case DT_TK_ENUM:
	case DT_TK_FWD: {
		const char *kw = t->kind == DT_TK_STRUCT ? "struct" : t->kind == DT_TK_UNION ? "union"
		                 : t->kind == DT_TK_ENUM ? "enum" : "struct";
		if (t->name == NULL)
			return (size_t)snprintf(buf, len, "%s %s%s%s", kw, "(anon)", sep, suffix);
		return (size_t)snprintf(buf, len, "%s %s%s%s", kw, t->name, sep, suffix);
	}
	case DT_TK_DYN:
		return (size_t)snprintf(buf, len, "<dynamic>%s%s", sep, suffix);
	default:
		return (size_t)snprintf(buf, len, "%s%s%s%s", t->isconst ? "const " : "",
					t->name != NULL ? t->name : "?", sep, suffix);
	}
}

char *
dt_type_name(const dt_type_t *t, char *buf, size_t len)
{
	dt_type_name_r(t, buf, len, "");
	return buf;
}

bool
dt_type_is_integer(dt_type_t *t)
{
	t = dt_type_resolve(t);
	return t != NULL && (t->kind == DT_TK_INT || t->kind == DT_TK_ENUM);
}

bool
dt_type_is_arith(dt_type_t *t)
{
	t = dt_type_resolve(t);
	return t != NULL && (t->kind == DT_TK_INT || t->kind == DT_TK_ENUM || t->kind == DT_TK_FLOAT);
}

bool
dt_type_is_pointer(dt_type_t *t)
{
	t = dt_type_resolve(t);
	return t != NULL && (t->kind == DT_TK_PTR || t->kind == DT_TK_ARRAY);
}

bool
dt_type_is_scalar(dt_type_t *t)
{
	t = dt_type_resolve(t);
	return t != NULL && (t->kind == DT_TK_INT || t->kind == DT_TK_ENUM || t->kind == DT_TK_PTR ||
			     t->kind == DT_TK_ARRAY || t->kind == DT_TK_FLOAT);
}

bool
dt_type_is_string(dt_type_t *t)
{
	t = dt_type_resolve(t);
	return t != NULL && t->kind == DT_TK_STRING;
}

bool
dt_type_is_void(dt_type_t *t)
{
	t = dt_type_resolve(t);
	return t != NULL && t->kind == DT_TK_VOID;
}

bool
dt_type_compat(dt_type_t *a, dt_type_t *b)
{
	a = dt_type_resolve(a);
	b = dt_type_resolve(b);
	if (a == b)
		return true;
	if (a == NULL || b == NULL)
		return false;
	/* a declared struct or union and its definition (C's incomplete type, completed) */
	if (a->kind == DT_TK_FWD && (b->kind == DT_TK_STRUCT || b->kind == DT_TK_UNION))
		return a->fwdkind == b->kind && a->name != NULL && b->name != NULL && strcmp(a->name, b->name) == 0;
	if (b->kind == DT_TK_FWD && (a->kind == DT_TK_STRUCT || a->kind == DT_TK_UNION))
		return dt_type_compat(b, a);
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case DT_TK_INT:
		return a->size == b->size && a->issigned == b->issigned;
	case DT_TK_PTR:
		return dt_type_compat(a->ref, b->ref);
	case DT_TK_ARRAY:
		return a->nelems == b->nelems && dt_type_compat(a->ref, b->ref);
	case DT_TK_STRUCT:
	case DT_TK_UNION:
	case DT_TK_ENUM:
		return a->name != NULL && b->name != NULL && strcmp(a->name, b->name) == 0;
	case DT_TK_STRING:
	case DT_TK_VOID:
	case DT_TK_DYN:
		return true;
	default:
		return false;
	}
}

dt_member_t *
dt_type_member(dt_type_t *sou, const char *name)
{
	sou = dt_type_resolve(sou);
	if (sou == NULL)
		return NULL;
	for (dt_member_t *m = sou->members; m != NULL; m = m->next) {
		if (m->name != NULL && strcmp(m->name, name) == 0)
			return m;
		/* anonymous struct/union members contribute their members */
		if (m->name == NULL) {
			dt_type_t *mt = dt_type_resolve(m->type);
			if (mt != NULL && (mt->kind == DT_TK_STRUCT || mt->kind == DT_TK_UNION)) {
				dt_member_t *in = dt_type_member(mt, name);
				if (in != NULL)
					return in;
			}
		}
	}
	return NULL;
}

static dt_type_t *
dt_type_valuedef(dt_pcb_t *pcb, const char *name)
{
	dt_type_define(pcb, name, pcb->t_void);
	pcb->types->isvalue = true;
	return pcb->types;
}

void
dt_types_init(dt_pcb_t *pcb)
{
	dt_type_t *t;

	pcb->t_void = dt_type_base(pcb, DT_TK_VOID, "void", 0, false);
	pcb->t_char = dt_type_base(pcb, DT_TK_INT, "char", 1, true);
	pcb->t_char->ischar = true;
	t = dt_type_base(pcb, DT_TK_INT, "signed char", 1, true);
	t->ischar = true;
	pcb->t_uchar = dt_type_base(pcb, DT_TK_INT, "unsigned char", 1, false);
	pcb->t_uchar->ischar = true;
	pcb->t_short = dt_type_base(pcb, DT_TK_INT, "short", 2, true);
	pcb->t_ushort = dt_type_base(pcb, DT_TK_INT, "unsigned short", 2, false);
	pcb->t_int = dt_type_base(pcb, DT_TK_INT, "int", 4, true);
	pcb->t_uint = dt_type_base(pcb, DT_TK_INT, "unsigned int", 4, false);
	pcb->ptrsize = pcb->opts != NULL && pcb->opts->ilp32 ? 4 : 8;
	pcb->t_long = dt_type_base(pcb, DT_TK_INT, "long", pcb->ptrsize, true);
	pcb->t_ulong = dt_type_base(pcb, DT_TK_INT, "unsigned long", pcb->ptrsize, false);
	pcb->t_llong = dt_type_base(pcb, DT_TK_INT, "long long", 8, true);
	pcb->t_ullong = dt_type_base(pcb, DT_TK_INT, "unsigned long long", 8, false);
	dt_type_base(pcb, DT_TK_FLOAT, "float", 4, true);
	dt_type_base(pcb, DT_TK_FLOAT, "double", 8, true);
	dt_type_base(pcb, DT_TK_FLOAT, "long double", 16, true);
	pcb->t_string = dt_type_base(pcb, DT_TK_STRING, "string", pcb->strsize, false);
	pcb->t_dyn = dt_type_new(pcb, DT_TK_DYN, "<dynamic>", 8);
	pcb->t_voidptr = dt_type_ptr(pcb, pcb->t_void);
	/*
	 * DTrace's dt_decl_type() gives an array declarator with a parameter
	 * list (int x[int]) its "<DYN>" type, a typedef of void, wherever it
	 * makes a type of one rather than declaring a variable: a typedef of
	 * it is then a name of void.  Not indexed: no D name reaches it.  The
	 * type itself is not void to DTrace (dt_node_is_void() excepts it: a
	 * cast to it is invalid), and its dt_type_name() is "dynamic variable".
	 */
	pcb->t_assoc = dt_type_new(pcb, DT_TK_TYPEDEF, "dynamic variable", 0);
	pcb->t_assoc->ref = pcb->t_void;
	pcb->t_assoc->isvalue = true;

	static const struct {
		const char *name;
		uint64_t size;
		bool sign;
	} ints[] = {
		{"int8_t", 1, true},     {"int16_t", 2, true},    {"int32_t", 4, true},
		{"int64_t", 8, true},    {"uint8_t", 1, false},   {"uint16_t", 2, false},
		{"uint32_t", 4, false},  {"uint64_t", 8, false},  {"intptr_t", 0, true},
		{"uintptr_t", 0, false}, {"size_t", 0, false},    {"ssize_t", 0, true},
		{"ptrdiff_t", 0, true},  {"off_t", 0, true},      {"pid_t", 4, true},
		{"id_t", 4, true},       {"uid_t", 4, false},     {"gid_t", 4, false},
		{"processorid_t", 4, true}, {"zoneid_t", 4, true}, {"time_t", 0, true},
		{"hrtime_t", 8, true},   {"uchar_t", 1, false},   {"ushort_t", 2, false},
		{"uint_t", 4, false},    {"ulong_t", 0, false},   {"u_longlong_t", 8, false},
		{"longlong_t", 8, true}, {"caddr_t", 8, false},   {"dev_t", 0, false},
		{"mode_t", 4, false},    {"ino_t", 0, false},     {"major_t", 4, false},
		{"minor_t", 4, false},   {"boolean_t", 4, true},  {"lwpid_t", 4, true},
		{"ipaddr_t", 4, false},  {"in_port_t", 2, false}, {"socklen_t", 4, false},
	};
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		/* size 0: the model's long (DTrace's typedefs of long and unsigned long) */
		dt_type_t *b = ints[i].size == 0 ? (ints[i].sign ? pcb->t_long : pcb->t_ulong)
						  : dt_type_int(pcb, ints[i].size, ints[i].sign);
		if (strcmp(ints[i].name, "caddr_t") == 0)
			b = dt_type_ptr(pcb, pcb->t_char);
		dt_type_define(pcb, ints[i].name, b);
	}
	pcb->t_int64 = dt_type_lookup(pcb, "int64_t");
	pcb->t_uint64 = dt_type_lookup(pcb, "uint64_t");
	/*
	 * in6_addr_t, what inet_ntoa6() takes (DTrace's prototype
	 * "string(in6_addr_t *)"): DTrace has it from the kernel's types as
	 * struct in6_addr.  Here a declaration of that tag, which a module's
	 * or the program's struct in6_addr completes (dt_type_compat).
	 */
	t = dt_type_new(pcb, DT_TK_FWD, "in6_addr", 0);
	t->fwdkind = DT_TK_STRUCT;
	dt_type_tag_add(pcb, t);
	dt_type_define(pcb, "in6_addr_t", t);
	/*
	 * DTrace's intrinsic typedefs of void, named types of the D container
	 * as in DTrace: what the stack actions give ("stack", which the lexer
	 * never reads as a type since the stack() action owns the name) and
	 * what the symbol actions give ("_symaddr", "_usymaddr").  Void to
	 * every integer, pointer and arithmetic rule, but an expression of one
	 * of them is a value (dt_node_is_void), compatible only with its own
	 * type, and the printf conversions %k, %a and %A ask for them by name.
	 */
	pcb->t_stack = dt_type_valuedef(pcb, "stack");
	pcb->t_symaddr = dt_type_valuedef(pcb, "_symaddr");
	pcb->t_usymaddr = dt_type_valuedef(pcb, "_usymaddr");
	pcb->t_size = dt_type_lookup(pcb, "size_t");
	pcb->t_ptrdiff = dt_type_lookup(pcb, "ptrdiff_t");
	pcb->intrinsic = pcb->types;
}

/* ---- types described for the consumer (print()) ---------------------------- */

struct dt_progmem {
	struct dt_progmem *next;
	max_align_t data[];
};

static void *
dt_progmem_alloc(dt_pcb_t *pcb, size_t n)
{
	struct dt_cprog_impl *impl = pcb->prog->impl;
	struct dt_progmem *m = calloc(1, sizeof(*m) + n);
	if (m == NULL)
		dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
	m->next = impl->mem;
	impl->mem = m;
	return m->data;
}

static char *
dt_progmem_strdup(dt_pcb_t *pcb, const char *s)
{
	char *p = dt_progmem_alloc(pcb, strlen(s) + 1);
	strcpy(p, s);
	return p;
}

void
dt_progmem_free(struct dt_cprog_impl *impl)
{
	struct dt_progmem *m, *n;
	for (m = impl->mem; m != NULL; m = n) {
		n = m->next;
		free(m);
	}
	impl->mem = NULL;
	free(impl->typemap);
	impl->typemap = NULL;
}

const dt_ctype_t *
dt_type_export(dt_pcb_t *pcb, dt_type_t *t, size_t *idx)
{
	struct dt_cprog_impl *impl = pcb->prog->impl;
	char name[512];
	dt_type_t *r;
	dt_ctype_t *c;

	for (size_t i = 0; i < impl->ntypemap; i++) {
		if (impl->typemap[i].from == t) {
			if (idx != NULL)
				*idx = i;
			return impl->typemap[i].to;
		}
	}
	/* enter it before its members so that self-referencing structs end */
	c = dt_progmem_alloc(pcb, sizeof(*c));
	if (impl->ntypemap == impl->typemapcap) {
		size_t cap = impl->typemapcap ? impl->typemapcap * 2 : 16;
		struct dt_typemap *m = realloc(impl->typemap, cap * sizeof(*m));
		if (m == NULL)
			dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
		impl->typemap = m;
		impl->typemapcap = cap;
	}
	impl->typemap[impl->ntypemap].from = t;
	impl->typemap[impl->ntypemap].to = c;
	if (idx != NULL)
		*idx = impl->ntypemap;
	impl->ntypemap++;

	dt_type_name(t, name, sizeof(name));
	{
		/* CTF names an anonymous struct, union or enum "struct " */
		char *anon = strstr(name, "(anon)");
		if (anon != NULL)
			memmove(anon, anon + 6, strlen(anon + 6) + 1);
	}
	c->name = dt_progmem_strdup(pcb, name);
	r = dt_type_resolve(t);
	if (r != NULL && r->kind == DT_TK_FWD && r->name != NULL) {
		dt_type_t *def = dt_type_tag(pcb, DT_TK_STRUCT, r->name);
		if (def != NULL)
			r = def;
	}
	if (r == NULL) {
		c->kind = DT_CTYPE_INT;
		c->size = 8;
		c->issigned = 1;
		return c;
	}
	c->size = r->kind == DT_TK_STRING ? pcb->strsize : r->size;
	c->issigned = r->issigned;
	c->ischar = r->ischar;
	switch (r->kind) {
	case DT_TK_VOID:
		c->kind = DT_CTYPE_VOID;
		break;
	case DT_TK_INT:
	case DT_TK_DYN:
		c->kind = DT_CTYPE_INT;
		if (r->kind == DT_TK_DYN) {
			c->size = 8;
			c->issigned = 1;
		}
		break;
	case DT_TK_FLOAT:
		c->kind = DT_CTYPE_FLOAT;
		break;
	case DT_TK_STRING:
		c->kind = DT_CTYPE_STRING;
		break;
	case DT_TK_PTR: {
		dt_type_t *ref = dt_type_resolve(r->ref);
		c->kind = DT_CTYPE_PTR;
		c->size = 8;
		c->ref = ref == NULL || ref->kind == DT_TK_VOID ? NULL : dt_type_export(pcb, r->ref, NULL);
		break;
	}
	case DT_TK_ARRAY:
		c->kind = DT_CTYPE_ARRAY;
		c->nelems = r->nelems;
		c->ref = dt_type_export(pcb, r->ref, NULL);
		break;
	case DT_TK_FUNC:
		c->kind = DT_CTYPE_FUNC;
		break;
	case DT_TK_ENUM: {
		int n = 0;
		c->kind = DT_CTYPE_ENUM;
		c->issigned = 1;
		for (dt_member_t *m = r->members; m != NULL; m = m->next)
			n++;
		dt_cenum_t *e = dt_progmem_alloc(pcb, sizeof(*e) * (size_t)(n + 1));
		n = 0;
		for (dt_member_t *m = r->members; m != NULL; m = m->next, n++) {
			e[n].name = dt_progmem_strdup(pcb, m->name);
			e[n].value = m->value;
		}
		c->enums = e;
		c->nenums = n;
		break;
	}
	case DT_TK_FWD:
		c->kind = DT_CTYPE_FWD;
		break;
	case DT_TK_STRUCT:
	case DT_TK_UNION: {
		int n = 0;
		c->kind = r->kind == DT_TK_UNION ? DT_CTYPE_UNION : DT_CTYPE_STRUCT;
		for (dt_member_t *m = r->members; m != NULL; m = m->next)
			n++;
		dt_cmember_t *mv = dt_progmem_alloc(pcb, sizeof(*mv) * (size_t)(n + 1));
		n = 0;
		for (dt_member_t *m = r->members; m != NULL; m = m->next, n++) {
			mv[n].name = m->name != NULL ? dt_progmem_strdup(pcb, m->name) : NULL;
			mv[n].type = dt_type_export(pcb, m->type, NULL);
			mv[n].off = m->off;
			mv[n].bits = m->bits;
			mv[n].bitoff = m->bitoff;
		}
		c->members = mv;
		c->nmembers = n;
		break;
	}
	default:
		c->kind = DT_CTYPE_INT;
		break;
	}
	return c;
}
