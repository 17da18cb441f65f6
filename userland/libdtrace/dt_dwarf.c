/*
 * dt_dwarf.c: module types from DWARF (`gcc -g'), read with libdwarf, for
 * objects that have no CTF.
 *
 * DWARF has no name index a C program can use for types, so opening an
 * object walks the top level of every compilation unit once and records
 * the DIE offsets of its typedefs, struct/union/enum tags (a definition
 * wins over a declaration), global variables (the DIE that names the
 * variable and carries its type) and defined functions.  Type ids are DIE offsets in .debug_info.
 * Qualifiers are dropped; a declaration-only struct looks for its
 * definition in the object's other units; bit-fields are placed as
 * dt_decl.c places D's (storage unit of the declared type + bit offset),
 * from DW_AT_data_bit_offset or, before DWARF 4, from DW_AT_bit_offset.
 * Types a C compiler does not emit for C (C++ classes' methods, templates)
 * are read only as far as their data members.  Called with dt_modtypes.c's
 * lock held.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

#include "dt_modtypes.h"

/*
 * libdwarf's API changed in its 0.x releases: Debian 12 has 20210528
 * (dwarf_init_path with an access mode and three reserved arguments,
 * dwarf_finish with an error), Debian 13 (the riscv64 sysroot) has 0.11,
 * which dropped both.  DW_DLC_READ is defined by the old API only.
 */
#ifdef DW_DLC_READ
#define DT_DW_INIT_PATH(path, dbgp, errp)                                                  \
	dwarf_init_path((path), NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, (dbgp), \
	                NULL, 0, NULL, (errp))
#define DT_DW_FINISH(dbg, errp) dwarf_finish((dbg), (errp))
#else
#define DT_DW_INIT_PATH(path, dbgp, errp)                                                   \
	dwarf_init_path((path), NULL, 0, DW_GROUPNUMBER_ANY, NULL, NULL, (dbgp), (errp))
#define DT_DW_FINISH(dbg, errp) ((void)(errp), dwarf_finish(dbg))
#endif

#define DT_DWIDX_BUCKETS 4096

typedef struct dt_dwname {
	char kind; /* 'T' typedef, 'S' struct, 'U' union, 'E' enum, 'V' variable, 'F' function */
	bool decl; /* only a declaration so far */
	char *name;
	Dwarf_Off off;
	struct dt_dwname *next;
} dt_dwname_t;

typedef struct dt_dwarf {
	Dwarf_Debug dbg;
	size_t nnames;
	dt_dwname_t *idx[DT_DWIDX_BUCKETS];
} dt_dwarf_t;

static uint32_t
dt_dw_hash(char kind, const char *s)
{
	uint32_t h = 2166136261u ^ (uint8_t)kind;

	for (; *s != '\0'; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h % DT_DWIDX_BUCKETS;
}

static dt_dwname_t *
dt_dw_index_get(dt_dwarf_t *d, char kind, const char *name)
{
	for (dt_dwname_t *e = d->idx[dt_dw_hash(kind, name)]; e != NULL; e = e->next)
		if (e->kind == kind && strcmp(e->name, name) == 0)
			return e;
	return NULL;
}

static bool
dt_dw_hasattr(Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Bool has = 0;
	Dwarf_Error err = NULL;

	return dwarf_hasattr(die, at, &has, &err) == DW_DLV_OK && has;
}

/* A constant attribute, signed or unsigned (exprlocs of one DW_OP_plus_uconst too). */
static bool
dt_dw_const(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at, int64_t *vp)
{
	Dwarf_Attribute a;
	Dwarf_Error err = NULL;
	Dwarf_Half form = 0;
	Dwarf_Unsigned u;
	Dwarf_Signed s;
	bool ok = false;

	if (dwarf_attr(die, at, &a, &err) != DW_DLV_OK)
		return false;
	(void)dwarf_whatform(a, &form, &err);
	if (form == DW_FORM_sdata || form == DW_FORM_implicit_const) {
		if (dwarf_formsdata(a, &s, &err) == DW_DLV_OK)
			*vp = s, ok = true;
	} else if (form == DW_FORM_exprloc) {
		Dwarf_Unsigned len = 0;
		Dwarf_Ptr p = NULL;
		if (dwarf_formexprloc(a, &len, &p, &err) == DW_DLV_OK && len >= 2 &&
		    ((uint8_t *)p)[0] == DW_OP_plus_uconst) {
			uint64_t v = 0;
			unsigned shift = 0;
			for (Dwarf_Unsigned i = 1; i < len && shift < 64; i++, shift += 7) {
				v |= (uint64_t)(((uint8_t *)p)[i] & 0x7f) << shift;
				if (!(((uint8_t *)p)[i] & 0x80))
					break;
			}
			*vp = (int64_t)v, ok = true;
		}
	} else if (dwarf_formudata(a, &u, &err) == DW_DLV_OK) {
		*vp = (int64_t)u, ok = true;
	} else if (dwarf_formsdata(a, &s, &err) == DW_DLV_OK) {
		*vp = s, ok = true;
	}
	if (err != NULL)
		dwarf_dealloc(dbg, err, DW_DLA_ERROR);
	dwarf_dealloc_attribute(a);
	return ok;
}

/* The DIE offset a reference attribute (DW_AT_type...) points at; 0 when absent. */
static Dwarf_Off
dt_dw_ref(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Attribute a;
	Dwarf_Error err = NULL;
	Dwarf_Off off = 0;

	if (dwarf_attr(die, at, &a, &err) != DW_DLV_OK)
		return 0;
	if (dwarf_global_formref(a, &off, &err) != DW_DLV_OK) {
		off = 0;
		if (err != NULL)
			dwarf_dealloc(dbg, err, DW_DLA_ERROR);
	}
	dwarf_dealloc_attribute(a);
	return off;
}

static const char *
dt_dw_name(Dwarf_Die die)
{
	char *name = NULL;
	Dwarf_Error err = NULL;

	return dwarf_diename(die, &name, &err) == DW_DLV_OK ? name : NULL;
}

static void
dt_dw_index_add(dt_dwarf_t *d, Dwarf_Die die, Dwarf_Half tag)
{
	char kind;
	const char *name;
	Dwarf_Off off = 0;
	Dwarf_Error err = NULL;
	bool decl;
	dt_dwname_t *e;

	switch (tag) {
	case DW_TAG_typedef: kind = 'T'; break;
	case DW_TAG_structure_type: kind = 'S'; break;
	case DW_TAG_union_type: kind = 'U'; break;
	case DW_TAG_enumeration_type: kind = 'E'; break;
	case DW_TAG_variable: kind = 'V'; break;
	case DW_TAG_subprogram: kind = 'F'; break;
	default: return;
	}
	if ((name = dt_dw_name(die)) == NULL || dwarf_dieoffset(die, &off, &err) != DW_DLV_OK)
		return;
	decl = dt_dw_hasattr(die, DW_AT_declaration);
	if (kind == 'V' && !dt_dw_hasattr(die, DW_AT_type))
		return;
	if (kind == 'F' && decl)
		return; /* a function's type is its definition's */
	if ((e = dt_dw_index_get(d, kind, name)) != NULL) {
		if (e->decl && !decl) {
			e->off = off;
			e->decl = false;
		}
		return;
	}
	if ((e = calloc(1, sizeof(*e))) == NULL || (e->name = strdup(name)) == NULL) {
		free(e);
		return;
	}
	e->kind = kind;
	e->decl = decl;
	e->off = off;
	d->nnames++;
	uint32_t b = dt_dw_hash(kind, name);
	e->next = d->idx[b];
	d->idx[b] = e;
}

/* Release die and step to its next sibling; false when it has none. */
static bool
dt_dw_next(Dwarf_Debug dbg, Dwarf_Die *diep, Dwarf_Error *errp)
{
	Dwarf_Die sib = NULL;
	int rv = dwarf_siblingof_b(dbg, *diep, 1, &sib, errp);

	dwarf_dealloc_die(*diep);
	*diep = sib;
	return rv == DW_DLV_OK;
}

/* Record the top-level names of every compilation unit. */
static void
dt_dw_index(dt_dwarf_t *d)
{
	Dwarf_Unsigned hlen, abbrev, sig_off, next;
	Dwarf_Half ver, asize, lsize, esize, cutype;
	Dwarf_Sig8 sig;
	Dwarf_Error err = NULL;

	for (;;) {
		Dwarf_Die cu = NULL, die = NULL;
		int rv = dwarf_next_cu_header_d(d->dbg, 1, &hlen, &ver, &abbrev, &asize, &lsize, &esize,
						&sig, &sig_off, &next, &cutype, &err);
		if (rv != DW_DLV_OK)
			break;
		if (dwarf_siblingof_b(d->dbg, NULL, 1, &cu, &err) != DW_DLV_OK)
			continue;
		if (dwarf_child(cu, &die, &err) == DW_DLV_OK) {
			do {
				Dwarf_Half tag;
				if (dwarf_tag(die, &tag, &err) == DW_DLV_OK)
					dt_dw_index_add(d, die, tag);
			} while (dt_dw_next(d->dbg, &die, &err));
		}
		dwarf_dealloc_die(cu);
	}
	if (err != NULL)
		dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
}

static void *
dt_dwarf_open(const char *path)
{
	dt_dwarf_t *d = calloc(1, sizeof(*d));
	Dwarf_Error err = NULL;

	if (d == NULL)
		return NULL;
	if (DT_DW_INIT_PATH(path, &d->dbg, &err) != DW_DLV_OK) {
		free(d);
		return NULL;
	}
	dt_dw_index(d);
	if (d->nnames == 0) {
		/* .eh_frame alone makes an object "DWARF"; without names it has no types */
		(void)DT_DW_FINISH(d->dbg, &err);
		free(d);
		return NULL;
	}
	return d;
}

static uint64_t
dt_dwarf_find(void *h, dt_tkind_t kind, const char *name)
{
	char k = kind == DT_TK_TYPEDEF ? 'T' : kind == DT_TK_STRUCT ? 'S' : kind == DT_TK_UNION ? 'U'
		 : kind == DT_TK_ENUM ? 'E' : 0;
	dt_dwname_t *e = k != 0 ? dt_dw_index_get(h, k, name) : NULL;

	/* only definitions answer for a tag */
	return e != NULL && (k == 'T' || !e->decl) ? (uint64_t)e->off : 0;
}

static uint64_t
dt_dwarf_find_var(void *h, const char *name)
{
	dt_dwarf_t *d = h;
	dt_dwname_t *e = dt_dw_index_get(d, 'V', name);
	Dwarf_Die die;
	Dwarf_Error err = NULL;
	Dwarf_Off t = 0;

	/* a function's DIE is its own type (built as its subroutine type) */
	if (e == NULL && (e = dt_dw_index_get(d, 'F', name)) != NULL)
		return (uint64_t)e->off;
	if (e == NULL || dwarf_offdie_b(d->dbg, e->off, 1, &die, &err) != DW_DLV_OK)
		return 0;
	t = dt_dw_ref(d->dbg, die, DW_AT_type);
	dwarf_dealloc_die(die);
	return (uint64_t)t;
}

/* The type DW_AT_type of die names, void when it has none. */
static dt_type_t *
dt_dw_reftype(dt_modimport_t *imp, dt_dwarf_t *d, Dwarf_Die die)
{
	Dwarf_Off off = dt_dw_ref(d->dbg, die, DW_AT_type);

	return off != 0 ? dt_modimport_type(imp, off) : dt_modimport_pcb(imp)->t_void;
}

static void
dt_dw_members(dt_modimport_t *imp, dt_dwarf_t *d, Dwarf_Die parent, dt_type_t *t)
{
	dt_pcb_t *pcb = dt_modimport_pcb(imp);
	Dwarf_Die die = NULL;
	Dwarf_Error err = NULL;
	dt_member_t **tail = &t->members;

	if (dwarf_child(parent, &die, &err) != DW_DLV_OK)
		return;
	do {
		Dwarf_Half tag = 0;
		const char *name = dt_dw_name(die);
		int64_t v;

		(void)dwarf_tag(die, &tag, &err);
		if ((tag == DW_TAG_member && !dt_dw_hasattr(die, DW_AT_external)) ||
		    tag == DW_TAG_enumerator) {
			dt_member_t *m = dt_zalloc(pcb, sizeof(*m));
			m->name = name != NULL ? dt_strdup(pcb, name) : NULL;
			if (tag == DW_TAG_enumerator) {
				if (dt_dw_const(d->dbg, die, DW_AT_const_value, &v))
					m->value = v;
			} else {
				int64_t bits = 0, loc = 0, pos;
				m->type = dt_dw_reftype(imp, d, die);
				(void)dt_dw_const(d->dbg, die, DW_AT_data_member_location, &loc);
				m->off = (uint64_t)loc;
				if (dt_dw_const(d->dbg, die, DW_AT_bit_size, &bits) && bits > 0) {
					dt_type_t *r = dt_type_resolve(m->type);
					uint64_t size = r != NULL && r->size > 0 ? r->size : 4;
					int64_t bo, bsz;
					if (dt_dw_const(d->dbg, die, DW_AT_data_bit_offset, &pos))
						;
					else if (dt_dw_const(d->dbg, die, DW_AT_bit_offset, &bo)) {
						/* DWARF 2/3: counted from the unit's most significant bit */
						if (!dt_dw_const(d->dbg, die, DW_AT_byte_size, &bsz))
							bsz = (int64_t)size;
						pos = loc * 8 + bsz * 8 - bo - bits;
					} else
						pos = loc * 8;
					m->bits = (int)bits;
					m->off = (uint64_t)pos / (size * 8) * size;
					m->bitoff = (int)((uint64_t)pos - m->off * 8);
				}
			}
			*tail = m;
			tail = &m->next;
		}
	} while (dt_dw_next(d->dbg, &die, &err));
	if (err != NULL)
		dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
}

/* Element counts of an array DIE's subranges, outermost first (at most max). */
static int
dt_dw_dims(dt_dwarf_t *d, Dwarf_Die parent, uint64_t *dims, int max)
{
	Dwarf_Die die = NULL;
	Dwarf_Error err = NULL;
	int n = 0;

	if (dwarf_child(parent, &die, &err) != DW_DLV_OK)
		return 0;
	do {
		Dwarf_Half tag = 0;
		int64_t v;

		(void)dwarf_tag(die, &tag, &err);
		if (tag == DW_TAG_subrange_type && n < max) {
			if (dt_dw_const(d->dbg, die, DW_AT_count, &v))
				dims[n++] = (uint64_t)v;
			else if (dt_dw_const(d->dbg, die, DW_AT_upper_bound, &v))
				dims[n++] = (uint64_t)v + 1;
			else
				dims[n++] = 0; /* flexible array member */
		}
	} while (dt_dw_next(d->dbg, &die, &err));
	if (err != NULL)
		dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
	return n;
}

static dt_type_t *
dt_dw_func(dt_modimport_t *imp, dt_dwarf_t *d, Dwarf_Die parent, uint64_t id)
{
	dt_pcb_t *pcb = dt_modimport_pcb(imp);
	dt_type_t *t = dt_modimport_new(imp, DT_TK_FUNC, NULL, 0), *args[64];
	Dwarf_Die die = NULL;
	Dwarf_Error err = NULL;
	int n = 0;

	dt_modimport_memo(imp, id, t);
	t->ref = dt_dw_reftype(imp, d, parent);
	if (dwarf_child(parent, &die, &err) == DW_DLV_OK) {
		do {
			Dwarf_Half tag = 0;
			(void)dwarf_tag(die, &tag, &err);
			if (tag == DW_TAG_formal_parameter && n < 64)
				args[n++] = dt_dw_reftype(imp, d, die);
			else if (tag == DW_TAG_unspecified_parameters)
				t->varargs = true;
		} while (dt_dw_next(d->dbg, &die, &err));
	}
	if (err != NULL)
		dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
	if (n > 0) {
		t->args = dt_zalloc(pcb, (size_t)n * sizeof(*t->args));
		memcpy(t->args, args, (size_t)n * sizeof(*t->args));
		t->nargs = n;
	}
	return t;
}

static dt_type_t *
dt_dwarf_build(dt_modimport_t *imp, void *h, uint64_t id)
{
	dt_dwarf_t *d = h;
	dt_pcb_t *pcb = dt_modimport_pcb(imp);
	Dwarf_Die die;
	Dwarf_Error err = NULL;
	Dwarf_Half tag = 0;
	dt_type_t *t = NULL;
	const char *name;
	int64_t size = 0, enc = 0;

	if (dwarf_offdie_b(d->dbg, (Dwarf_Off)id, 1, &die, &err) != DW_DLV_OK) {
		if (err != NULL)
			dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
		return NULL;
	}
	(void)dwarf_tag(die, &tag, &err);
	name = dt_dw_name(die);
	(void)dt_dw_const(d->dbg, die, DW_AT_byte_size, &size);

	switch (tag) {
	case DW_TAG_base_type:
		(void)dt_dw_const(d->dbg, die, DW_AT_encoding, &enc);
		if (enc == DW_ATE_float)
			t = dt_modimport_float(imp, name, (uint64_t)size);
		else if (enc == DW_ATE_signed || enc == DW_ATE_signed_char || enc == DW_ATE_unsigned ||
			 enc == DW_ATE_unsigned_char || enc == DW_ATE_boolean || enc == DW_ATE_UTF)
			t = dt_modimport_int(imp, name, (uint64_t)size,
					     enc == DW_ATE_signed || enc == DW_ATE_signed_char,
					     enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char);
		break;
	case DW_TAG_unspecified_type:
		t = pcb->t_void;
		break;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		t = dt_type_ptr_sized(pcb, dt_dw_reftype(imp, d, die),
				      size > 0 ? (uint64_t)size : (uint64_t)sizeof(void *));
		break;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		t = dt_dw_reftype(imp, d, die);
		break;
	case DW_TAG_typedef: {
		dt_type_t *rt = dt_dw_reftype(imp, d, die);
		t = dt_modimport_new(imp, DT_TK_TYPEDEF, name, rt->size);
		t->ref = rt;
		t->align = rt->align;
		t->issigned = rt->issigned;
		break;
	}
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type: {
		dt_tkind_t k = tag == DW_TAG_union_type ? DT_TK_UNION : DT_TK_STRUCT;
		if (dt_dw_hasattr(die, DW_AT_declaration)) {
			if (name == NULL || (t = dt_modimport_tagdef(imp, k, name)) == NULL)
				t = dt_modimport_new(imp, DT_TK_FWD, name, 0);
			break;
		}
		t = dt_modimport_new(imp, k, name, (uint64_t)size);
		dt_modimport_memo(imp, id, t);
		dt_dw_members(imp, d, die, t);
		t->align = 1;
		for (dt_member_t *m = t->members; m != NULL; m = m->next) {
			dt_type_t *r = dt_type_resolve(m->type);
			if (r != NULL && r->align > t->align)
				t->align = r->align;
		}
		break;
	}
	case DW_TAG_enumeration_type: {
		if (dt_dw_hasattr(die, DW_AT_declaration) && name != NULL &&
		    (t = dt_modimport_tagdef(imp, DT_TK_ENUM, name)) != NULL)
			break;
		t = dt_modimport_new(imp, DT_TK_ENUM, name, size > 0 ? (uint64_t)size : 4);
		t->issigned = true;
		if (dt_dw_ref(d->dbg, die, DW_AT_type) != 0)
			t->issigned = dt_type_resolve(dt_dw_reftype(imp, d, die))->issigned;
		dt_modimport_memo(imp, id, t);
		dt_dw_members(imp, d, die, t);
		break;
	}
	case DW_TAG_array_type: {
		uint64_t dims[16];
		int n = dt_dw_dims(d, die, dims, 16);
		t = dt_dw_reftype(imp, d, die);
		if (n == 0)
			dims[n++] = 0;
		while (n-- > 0)
			t = dt_type_array(pcb, t, dims[n]);
		break;
	}
	case DW_TAG_subroutine_type:
	case DW_TAG_subprogram:
		t = dt_dw_func(imp, d, die, id);
		break;
	default:
		break;
	}
	dwarf_dealloc_die(die);
	return t;
}

const dt_typereader_t dt_dwarf_reader = {
	"DWARF", dt_dwarf_open, dt_dwarf_find, dt_dwarf_find_var, dt_dwarf_build,
};
