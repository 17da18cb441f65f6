/*
 * dt_ctf.c: module types from CTF (the .ctf section `gcc -gctf' emits and
 * ld links), read with libctf.
 *
 * An object's CTF is an archive; its default dictionary holds the types
 * shared by all of the object's compilation units, which is what C names
 * refer to.  Type ids are libctf's.  Qualifiers (const, volatile,
 * restrict) are dropped: D's checker does not use them.  A bit-field is a
 * member whose integer type (or slice) has fewer bits than its storage; its
 * place is given as the storage unit of its declared type holding it plus
 * the bit offset inside, as dt_decl.c lays out D's own bit-fields.  A
 * global variable's type is the one CTF records for its symbol: ld (2.40)
 * records them for dynamic symbols only, which in a program means those
 * it exports (-rdynamic).  Called with dt_modtypes.c's lock held.
 */
#include <ctf-api.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_elf.h"
#include "dt_modtypes.h"

typedef struct dt_ctf {
	ctf_archive_t *arc;
	ctf_dict_t *fp;
} dt_ctf_t;

/* Does the ELF file have a .ctf section?  (Saves libctf opening every library.) */
static bool
dt_ctf_present(const char *path)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	bool found = false;
	int fd;

	if ((elf = dt_elf_open(path, &fd)) == NULL)
		return false;
	if (elf_getshdrstrndx(elf, &shstrndx) == 0) {
		while (!found && (scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr sh;
			const char *name;

			if (gelf_getshdr(scn, &sh) != NULL &&
			    (name = elf_strptr(elf, shstrndx, sh.sh_name)) != NULL &&
			    strcmp(name, ".ctf") == 0 && sh.sh_size > 0)
				found = true;
		}
	}
	dt_elf_close(elf, fd);
	return found;
}

static void *
dt_ctf_open(const char *path)
{
	dt_ctf_t *c;
	int err = 0;

	if (!dt_ctf_present(path) || (c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	if ((c->arc = ctf_open(path, NULL, &err)) == NULL ||
	    (c->fp = ctf_dict_open(c->arc, NULL, &err)) == NULL) {
		if (c->arc != NULL)
			ctf_arc_close(c->arc);
		free(c);
		return NULL;
	}
	return c;
}

static uint64_t
dt_ctf_find(void *h, dt_tkind_t kind, const char *name)
{
	dt_ctf_t *c = h;
	char buf[1024];
	const char *kw = kind == DT_TK_STRUCT ? "struct " : kind == DT_TK_UNION ? "union "
			 : kind == DT_TK_ENUM ? "enum " : "";
	ctf_id_t id;
	int k;

	if ((size_t)snprintf(buf, sizeof(buf), "%s%s", kw, name) >= sizeof(buf) ||
	    (id = ctf_lookup_by_name(c->fp, buf)) == CTF_ERR || id == 0)
		return 0;
	k = ctf_type_kind(c->fp, id);
	if (kind == DT_TK_TYPEDEF)
		return k == CTF_K_TYPEDEF ? (uint64_t)id : 0;
	if (k == CTF_K_FORWARD)
		return 0; /* only definitions answer for a tag */
	if ((kind == DT_TK_STRUCT && k != CTF_K_STRUCT) || (kind == DT_TK_UNION && k != CTF_K_UNION) ||
	    (kind == DT_TK_ENUM && k != CTF_K_ENUM))
		return 0;
	return (uint64_t)id;
}

static uint64_t
dt_ctf_find_var(void *h, const char *name)
{
	dt_ctf_t *c = h;
	ctf_id_t id = ctf_lookup_variable(c->fp, name);

	if (id == CTF_ERR || id == 0)
		id = ctf_lookup_by_symbol_name(c->fp, name);
	return id == CTF_ERR ? 0 : (uint64_t)id;
}

typedef struct dt_ctf_sou {
	dt_modimport_t *imp;
	dt_ctf_t *c;
	dt_type_t *sou;
	dt_member_t **tail;
} dt_ctf_sou_t;

static int
dt_ctf_member(const char *name, ctf_id_t mtype, unsigned long bitoff, void *arg)
{
	dt_ctf_sou_t *s = arg;
	dt_pcb_t *pcb = dt_modimport_pcb(s->imp);
	dt_member_t *m = dt_zalloc(pcb, sizeof(*m));
	ctf_encoding_t enc;
	ctf_id_t r = ctf_type_resolve(s->c->fp, mtype);

	m->name = name != NULL && name[0] != '\0' ? dt_strdup(pcb, name) : NULL;
	m->type = dt_modimport_type(s->imp, (uint64_t)mtype);
	m->off = bitoff / 8;
	if (r != CTF_ERR && (ctf_type_kind(s->c->fp, r) == CTF_K_INTEGER ||
			     ctf_type_kind(s->c->fp, r) == CTF_K_ENUM) &&
	    ctf_type_encoding(s->c->fp, mtype, &enc) == 0) {
		uint64_t size = dt_type_resolve(m->type) != NULL ? dt_type_resolve(m->type)->size : 0;
		uint64_t unit = size * 8;
		uint64_t pos = bitoff + enc.cte_offset;
		if (unit > 0 && enc.cte_bits > 0 && (enc.cte_bits < unit || pos % 8 != 0)) {
			m->bits = (int)enc.cte_bits;
			m->off = pos / unit * size;
			m->bitoff = (int)(pos - m->off * 8);
		}
	}
	*s->tail = m;
	s->tail = &m->next;
	return 0;
}

typedef struct dt_ctf_enum {
	dt_pcb_t *pcb;
	dt_member_t **tail;
} dt_ctf_enum_t;

static int
dt_ctf_enumerator(const char *name, int val, void *arg)
{
	dt_ctf_enum_t *e = arg;
	dt_member_t *m = dt_zalloc(e->pcb, sizeof(*m));

	m->name = dt_strdup(e->pcb, name);
	m->value = val;
	*e->tail = m;
	e->tail = &m->next;
	return 0;
}

/* The size of a C integer type by gcc's name for it, 0 when not a C name. */
static uint64_t
dt_ctf_int_size(const char *name)
{
	if (name == NULL)
		return 0;
	if (strstr(name, "char") != NULL || strcmp(name, "_Bool") == 0)
		return 1;
	if (strstr(name, "short") != NULL)
		return 2;
	if (strstr(name, "__int128") != NULL)
		return 16;
	if (strstr(name, "long") != NULL)
		return 8;
	if (strstr(name, "int") != NULL)
		return 4;
	return 0;
}

static dt_type_t *
dt_ctf_build(dt_modimport_t *imp, void *h, uint64_t id64)
{
	dt_ctf_t *c = h;
	dt_pcb_t *pcb = dt_modimport_pcb(imp);
	ctf_id_t id = (ctf_id_t)id64;
	const char *name = ctf_type_name_raw(c->fp, id);
	ssize_t size = ctf_type_size(c->fp, id);
	dt_type_t *t;

	if (name != NULL && name[0] == '\0')
		name = NULL;
	switch (ctf_type_kind(c->fp, id)) {
	case CTF_K_INTEGER: {
		ctf_encoding_t enc;
		if (ctf_type_encoding(c->fp, id, &enc) != 0)
			return NULL;
		if (size <= 0 || (name != NULL && strcmp(name, "void") == 0))
			return pcb->t_void;
		/*
		 * A bit-field's integer (or the one its slice refers to) is as
		 * small as its bits; D wants the declared type.
		 */
		ctf_id_t under = ctf_type_reference(c->fp, id);
		if (name == NULL && under != CTF_ERR && under != 0)
			name = ctf_type_name_raw(c->fp, under);
		uint64_t natural = dt_ctf_int_size(name);
		if (natural != 0 && natural > (uint64_t)size)
			size = (ssize_t)natural;
		return dt_modimport_int(imp, name, (uint64_t)size, (enc.cte_format & CTF_INT_SIGNED) != 0,
					(enc.cte_format & CTF_INT_CHAR) != 0);
	}
	case CTF_K_FLOAT:
		return dt_modimport_float(imp, name, size > 0 ? (uint64_t)size : 0);
	case CTF_K_UNKNOWN:
		return pcb->t_void;
	case CTF_K_POINTER: {
		ctf_id_t ref = ctf_type_reference(c->fp, id);
		return dt_type_ptr_sized(pcb,
					 ref == CTF_ERR || ref == 0 ? pcb->t_void
								    : dt_modimport_type(imp, (uint64_t)ref),
					 size > 0 ? (uint64_t)size : (uint64_t)sizeof(void *));
	}
	case CTF_K_ARRAY: {
		ctf_arinfo_t ar;
		if (ctf_array_info(c->fp, id, &ar) != 0)
			return NULL;
		return dt_type_array(pcb, dt_modimport_type(imp, (uint64_t)ar.ctr_contents), ar.ctr_nelems);
	}
	case CTF_K_FUNCTION: {
		ctf_funcinfo_t fi;
		if (ctf_func_type_info(c->fp, id, &fi) != 0)
			return NULL;
		t = dt_modimport_new(imp, DT_TK_FUNC, NULL, 0);
		dt_modimport_memo(imp, id64, t);
		t->ref = fi.ctc_return == 0 ? pcb->t_void : dt_modimport_type(imp, (uint64_t)fi.ctc_return);
		t->varargs = (fi.ctc_flags & CTF_FUNC_VARARG) != 0;
		if (fi.ctc_argc > 0) {
			ctf_id_t *argv = dt_zalloc(pcb, fi.ctc_argc * sizeof(*argv));
			if (ctf_func_type_args(c->fp, id, fi.ctc_argc, argv) != 0)
				return t;
			t->args = dt_zalloc(pcb, fi.ctc_argc * sizeof(*t->args));
			for (uint32_t i = 0; i < fi.ctc_argc; i++)
				t->args[i] = dt_modimport_type(imp, (uint64_t)argv[i]);
			t->nargs = (int)fi.ctc_argc;
		}
		return t;
	}
	case CTF_K_STRUCT:
	case CTF_K_UNION: {
		bool un = ctf_type_kind(c->fp, id) == CTF_K_UNION;
		ssize_t al = ctf_type_align(c->fp, id);
		t = dt_modimport_new(imp, un ? DT_TK_UNION : DT_TK_STRUCT, name, size > 0 ? (uint64_t)size : 0);
		t->align = al > 0 ? (uint32_t)al : 1;
		dt_modimport_memo(imp, id64, t);
		dt_ctf_sou_t s = {imp, c, t, &t->members};
		(void)ctf_member_iter(c->fp, id, dt_ctf_member, &s);
		return t;
	}
	case CTF_K_ENUM: {
		t = dt_modimport_new(imp, DT_TK_ENUM, name, size > 0 ? (uint64_t)size : 4);
		t->issigned = true;
		dt_modimport_memo(imp, id64, t);
		dt_ctf_enum_t e = {pcb, &t->members};
		(void)ctf_enum_iter(c->fp, id, dt_ctf_enumerator, &e);
		return t;
	}
	case CTF_K_FORWARD: {
		int fk = ctf_type_kind_forwarded(c->fp, id);
		dt_tkind_t k = fk == CTF_K_UNION ? DT_TK_UNION : fk == CTF_K_ENUM ? DT_TK_ENUM : DT_TK_STRUCT;
		if (name != NULL && (t = dt_modimport_tagdef(imp, k, name)) != NULL)
			return t;
		return dt_modimport_new(imp, DT_TK_FWD, name, 0);
	}
	case CTF_K_TYPEDEF: {
		ctf_id_t ref = ctf_type_reference(c->fp, id);
		dt_type_t *rt = ref == CTF_ERR || ref == 0 ? pcb->t_void : dt_modimport_type(imp, (uint64_t)ref);
		t = dt_modimport_new(imp, DT_TK_TYPEDEF, name, rt->size);
		t->ref = rt;
		t->align = rt->align;
		t->issigned = rt->issigned;
		return t;
	}
	case CTF_K_VOLATILE:
	case CTF_K_CONST:
	case CTF_K_RESTRICT:
	case CTF_K_SLICE: {
		ctf_id_t ref = ctf_type_reference(c->fp, id);
		return ref == CTF_ERR || ref == 0 ? pcb->t_void : dt_modimport_type(imp, (uint64_t)ref);
	}
	default:
		return NULL;
	}
}

const dt_typereader_t dt_ctf_reader = {
	"CTF", dt_ctf_open, dt_ctf_find, dt_ctf_find_var, dt_ctf_build,
};
