/*
 * dt_print_typed.c: the output of print(), a trace() record printed by its
 * type the way DTrace prints it (the layout of mdb's "::print -tn").
 *
 * The compiler describes the printed expression's type as a dt_ctype_t
 * (dt_compile.h) owned by the program; the consumer finds it through the
 * record's uarg.  Walking the type is a pre-order visit: the value itself
 * at depth 0 with no name, then every struct or union member one level
 * deeper.  Each visited item prints on its own line as "type name = value"
 * indented four columns a level; a struct prints "{" where its value would
 * be, and its closing braces are owed until the walk comes back up to a
 * shallower depth (or ends).  Arrays print their elements inline between
 * "[ " and " ]", each element walked as its own value with the array's
 * nesting added to the indentation; character arrays that hold a printable
 * NUL-terminated string print as that string.  Integers print in hex,
 * chars quoted, enums by name, bit-fields with their width.
 *
 * Every read stays inside the record: a type that does not fit the record
 * is not printed here (the caller falls back to trace()'s output).
 */
#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "dt_compile.h"
#include "dt_impl.h"

typedef struct dt_ptstate {
	dtrace_hdl_t *dtp;
	FILE *fp;
	const unsigned char *base; /* the record */
	size_t size;
	int depth; /* depth of the last item printed: braces owed down to here */
	int nest;  /* array nesting: extra indentation of array elements */
	int err;
} dt_ptstate_t;

static void dt_pt_visit(dt_ptstate_t *ps, const char *name, const dt_ctype_t *t, uint64_t bitoff,
			int bits, int depth);

static void __attribute__((format(printf, 2, 3)))
dt_pt_printf(dt_ptstate_t *ps, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (dt_vprintf(ps->dtp, ps->fp, fmt, ap) != 0)
		ps->err = -1;
	va_end(ap);
}

/* size bytes at byte offset off, as an unsigned native integer (0 outside the record) */
static uint64_t
dt_pt_load(const dt_ptstate_t *ps, uint64_t off, size_t size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64 = 0;

	if (off > ps->size || size > ps->size - off)
		return 0;
	switch (size) {
	case 1:
		memcpy(&u8, ps->base + off, 1);
		return u8;
	case 2:
		memcpy(&u16, ps->base + off, 2);
		return u16;
	case 4:
		memcpy(&u32, ps->base + off, 4);
		return u32;
	case 8:
		memcpy(&u64, ps->base + off, 8);
		return u64;
	default:
		return 0;
	}
}

static int
dt_pt_ischar(const dt_ctype_t *t)
{
	return t != NULL && t->kind == DT_CTYPE_INT && t->ischar && t->issigned && t->size == 1;
}

static int
dt_pt_structlike(const dt_ctype_t *t)
{
	return t->kind == DT_CTYPE_STRUCT || t->kind == DT_CTYPE_UNION;
}

static void
dt_pt_indent(dt_ptstate_t *ps)
{
	dt_pt_printf(ps, "%*s", (ps->depth + ps->nest) * 4, "");
}

/* Close the structs left open deeper than depth; the last brace gets no newline. */
static void
dt_pt_braces(dt_ptstate_t *ps, int depth)
{
	for (int d = ps->depth; d > depth; d--)
		dt_pt_printf(ps, "%*s}%s", (d + ps->nest - 1) * 4, "", d == depth + 1 ? "" : "\n");
}

/* A character as DTrace quotes it: printable as is, NUL as \0, else octal of the (signed) char. */
static void
dt_pt_char(dt_ptstate_t *ps, uint64_t v)
{
	signed char c = (signed char)(uint8_t)v;

	if (isprint((unsigned char)c))
		dt_pt_printf(ps, "'%c'", c);
	else if (c == 0)
		dt_pt_printf(ps, "'\\0'");
	else
		dt_pt_printf(ps, "'\\%03o'", (unsigned)(int)c);
}

static void
dt_pt_hex(dt_ptstate_t *ps, uint64_t off, size_t size)
{
	if (size == 1 || size == 2 || size == 4 || size == 8)
		dt_pt_printf(ps, "%#llx", (unsigned long long)dt_pt_load(ps, off, size));
	else
		dt_pt_printf(ps, "<invalid size %u>", (unsigned)size);
}

/* A bit-field's value: its storage unit (the declared type's size) shifted and masked. */
static uint64_t
dt_pt_bitfield(const dt_ptstate_t *ps, const dt_ctype_t *t, uint64_t bitoff, int bits)
{
	size_t unit = (size_t)t->size;
	uint64_t start, v;

	if (unit != 1 && unit != 2 && unit != 4 && unit != 8)
		unit = 8;
	start = bitoff / 8 / unit * unit;
	v = dt_pt_load(ps, start, unit) >> (bitoff - start * 8);
	return bits >= 64 ? v : v & ((1ULL << bits) - 1);
}

static void
dt_pt_int(dt_ptstate_t *ps, const dt_ctype_t *t, uint64_t bitoff, int bits)
{
	if (bits > 0) {
		uint64_t v = dt_pt_bitfield(ps, t, bitoff, bits);
		/* a byte-aligned 8-bit char field is still a char */
		if (bits == 8 && bitoff % 8 == 0 && dt_pt_ischar(t))
			dt_pt_char(ps, v);
		else
			dt_pt_printf(ps, "%#llx", (unsigned long long)v);
		return;
	}
	if (dt_pt_ischar(t)) {
		dt_pt_char(ps, dt_pt_load(ps, bitoff / 8, 1));
		return;
	}
	dt_pt_hex(ps, bitoff / 8, (size_t)t->size);
}

static void
dt_pt_float(dt_ptstate_t *ps, const dt_ctype_t *t, uint64_t off)
{
	if (off > ps->size || t->size > ps->size - off) {
		dt_pt_printf(ps, "<unknown encoding>");
		return;
	}
	if (t->size == sizeof(float)) {
		float f;
		memcpy(&f, ps->base + off, sizeof(f));
		dt_pt_printf(ps, "%+.7e", (double)f);
	} else if (t->size == sizeof(double)) {
		double d;
		memcpy(&d, ps->base + off, sizeof(d));
		dt_pt_printf(ps, "%+.7e", d);
	} else if (t->size == sizeof(long double)) {
		long double ld;
		memcpy(&ld, ps->base + off, sizeof(ld));
		dt_pt_printf(ps, "%+.16LE", ld);
	} else {
		dt_pt_printf(ps, "<unknown encoding>");
	}
}

/* Pointers print in hex; a function pointer by the symbol it points at, when known. */
static void
dt_pt_ptr(dt_ptstate_t *ps, const dt_ctype_t *t, uint64_t off)
{
	dt_syminfo_t si;
	uint64_t pc;

	if (t->kind == DT_CTYPE_PTR && t->ref != NULL && t->ref->kind == DT_CTYPE_FUNC &&
	    t->size == sizeof(uint64_t)) {
		pc = dt_pt_load(ps, off, sizeof(uint64_t));
		if (dt_symtab_lookup(ps->dtp, 0, pc, &si) == 0 && si.dts_hassym) {
			dt_pt_printf(ps, "%s`%s", si.dts_object, si.dts_name);
			return;
		}
	}
	dt_pt_hex(ps, off, (size_t)t->size);
}

static void
dt_pt_enum(dt_ptstate_t *ps, const dt_ctype_t *t, uint64_t bitoff, int bits)
{
	int64_t v;

	if (bits > 0) {
		v = (int64_t)dt_pt_bitfield(ps, t, bitoff, bits);
	} else {
		switch (t->size) {
		case 1:
			v = (int64_t)dt_pt_load(ps, bitoff / 8, 1);
			break;
		case 2:
			v = (int64_t)dt_pt_load(ps, bitoff / 8, 2);
			break;
		case 4:
			v = (int32_t)(uint32_t)dt_pt_load(ps, bitoff / 8, 4);
			break;
		default:
			dt_pt_printf(ps, "<invalid enum size %u>", (unsigned)t->size);
			return;
		}
	}
	for (int i = 0; i < t->nenums; i++) {
		if (t->enums[i].value == v) {
			dt_pt_printf(ps, "%s", t->enums[i].name);
			return;
		}
	}
	dt_pt_printf(ps, "%d", (int)v);
}

/*
 * An array, or D's string (a char array of its size): inline elements, or
 * the text when it is a char array holding printable characters up to a
 * NUL.  A string at the top of the walk prints without brackets.
 */
static void
dt_pt_array(dt_ptstate_t *ps, const dt_ctype_t *t, uint64_t off)
{
	const dt_ctype_t *elt = t->kind == DT_CTYPE_STRING ? NULL : t->ref;
	uint64_t n = t->kind == DT_CTYPE_STRING ? t->size : t->nelems;
	uint64_t esize = elt != NULL ? elt->size : 1;
	int ischar = elt == NULL || dt_pt_ischar(elt);
	int structs = elt != NULL && dt_pt_structlike(elt);
	int isstring = 0;
	uint64_t i;

	if (off > ps->size || n * esize > ps->size - off || (elt == NULL && t->kind != DT_CTYPE_STRING)) {
		dt_pt_printf(ps, "<invalid type>");
		return;
	}
	if (ischar) {
		char c = 0;
		for (i = 0; i < n; i++) {
			c = (char)ps->base[off + i];
			if (!isprint((unsigned char)c) || c == '\0')
				break;
		}
		isstring = i != n && c == '\0';
	}

	if (!isstring || ps->depth != 0)
		dt_pt_printf(ps, "[ ");
	if (isstring) {
		size_t len = strnlen((const char *)ps->base + off, (size_t)n);
		dt_pt_printf(ps, "\"%.*s\"", (int)len, (const char *)ps->base + off);
	} else {
		for (i = 0; i < n && ps->err == 0; i++) {
			dt_ptstate_t sub = *ps;

			sub.nest += ps->depth + 1;
			sub.depth = 0;
			if (elt == NULL) {
				dt_pt_char(&sub, ps->base[off + i]);
			} else {
				dt_pt_visit(&sub, "", elt, (off + i * esize) * 8, 0, 0);
				dt_pt_braces(&sub, 0);
			}
			ps->err = sub.err;
			if (i != n - 1)
				dt_pt_printf(ps, ", ");
			else if (structs)
				dt_pt_printf(ps, "\n");
		}
	}
	if (!isstring || ps->depth != 0) {
		if (structs)
			dt_pt_indent(ps);
		else
			dt_pt_printf(ps, " ");
		dt_pt_printf(ps, "]");
	}
}

/* One item of the walk: "type name = value" on its own line, or just the value in an array. */
static void
dt_pt_member(dt_ptstate_t *ps, const char *name, const dt_ctype_t *t, uint64_t bitoff, int bits,
	     int depth)
{
	int arraymember, brief;

	dt_pt_braces(ps, depth);
	if (depth < ps->depth)
		dt_pt_printf(ps, "\n");
	ps->depth = depth;

	if (t == NULL || t->kind == DT_CTYPE_VOID) {
		dt_pt_indent(ps);
		dt_pt_printf(ps, "%s = <invalid type>", name);
		return;
	}

	arraymember = ps->nest != 0 && depth == 0;
	brief = arraymember && !dt_pt_structlike(t);
	if (!brief) {
		size_t tl = strlen(t->name);

		if (arraymember)
			dt_pt_printf(ps, "\n");
		dt_pt_indent(ps);
		dt_pt_printf(ps, "%s", t->name);
		if (name[0] != '\0') {
			/* no blank after a pointer's '*' or an anonymous "struct " */
			if (tl == 0 || (t->name[tl - 1] != '*' && t->name[tl - 1] != ' '))
				dt_pt_printf(ps, " ");
			dt_pt_printf(ps, "%s", name);
			/* a width that is not a whole, aligned, natural-size integer is shown */
			if (t->kind == DT_CTYPE_INT && bits > 0 &&
			    (bits % 8 != 0 || bitoff % 8 != 0 || (uint64_t)bits / 8 != t->size))
				dt_pt_printf(ps, " :%d", bits);
			dt_pt_printf(ps, " =");
		}
		dt_pt_printf(ps, " ");
	}

	switch (t->kind) {
	case DT_CTYPE_INT:
		dt_pt_int(ps, t, bitoff, bits);
		break;
	case DT_CTYPE_FLOAT:
		dt_pt_float(ps, t, bitoff / 8);
		break;
	case DT_CTYPE_PTR:
	case DT_CTYPE_FUNC:
		dt_pt_ptr(ps, t, bitoff / 8);
		break;
	case DT_CTYPE_ARRAY:
	case DT_CTYPE_STRING:
		dt_pt_array(ps, t, bitoff / 8);
		break;
	case DT_CTYPE_STRUCT:
	case DT_CTYPE_UNION:
		dt_pt_printf(ps, "{");
		break;
	case DT_CTYPE_ENUM:
		dt_pt_enum(ps, t, bitoff, bits);
		break;
	case DT_CTYPE_FWD:
		dt_pt_printf(ps, "<forward decl>");
		break;
	default:
		dt_pt_printf(ps, "<invalid type>");
		break;
	}
	if (!brief)
		dt_pt_printf(ps, "\n");
}

static void
dt_pt_visit(dt_ptstate_t *ps, const char *name, const dt_ctype_t *t, uint64_t bitoff, int bits,
	    int depth)
{
	dt_pt_member(ps, name, t, bitoff, bits, depth);
	if (t == NULL || !dt_pt_structlike(t))
		return;
	for (int i = 0; i < t->nmembers && ps->err == 0; i++) {
		const dt_cmember_t *m = &t->members[i];
		dt_pt_visit(ps, m->name != NULL ? m->name : "", m->type,
			    bitoff + m->off * 8 + (uint64_t)m->bitoff, m->bits, depth + 1);
	}
}

int
dt_print_typed(dtrace_hdl_t *dtp, FILE *fp, const dt_ctype_t *t, const void *addr, size_t size)
{
	dt_ptstate_t ps;

	/* what does not fit the record is left to trace() */
	if (t == NULL || t->kind == DT_CTYPE_VOID || t->size > size)
		return 0;
	memset(&ps, 0, sizeof(ps));
	ps.dtp = dtp;
	ps.fp = fp;
	ps.base = addr;
	ps.size = size;
	dt_pt_visit(&ps, "", t, 0, 0, 0);
	dt_pt_braces(&ps, 0);
	return ps.err != 0 ? -1 : (int)(size > 0 ? size : 1);
}
