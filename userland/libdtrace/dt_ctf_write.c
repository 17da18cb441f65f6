/*
 * dt_ctf_write.c: -x ctypes and -x dtypes, the CTF of a compilation's
 * types written to a file with libctf, as DTrace writes its two type
 * containers when a compilation ends.
 *
 * DTrace keeps D's types in two containers.  "C" holds the C intrinsic
 * types (void, char, int, ..., long double) and the types declared in
 * header files the preprocessor included; "D" holds what D itself defines
 * (int8_t ... socklen_t, string, stack, _symaddr, _usymaddr) and the types
 * the programs and libraries declare, and imports "C" as its parent.  Here
 * both are built afresh from the compilation's types: "C" first, then "D"
 * as a child of "C" whose types refer to "C"'s where they are "C"'s.  A
 * derived type (pointer, array, function) goes where the type that needs
 * it goes.  (DTrace's containers live as long as the handle, so a second
 * compilation's file holds the first one's types as well; here it holds
 * this compilation's, with the libraries'.)  The file is truncated and rewritten; a failure leaves it as
 * libctf left it (DTrace only logs it).  libctf writes its own CTF format
 * version, not Solaris's.
 */
#include <ctf-api.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dt_parse.h"

typedef struct dt_ctfw {
	ctf_dict_t *fp;
	struct dt_ctfw *parent; /* "C" for "D" */
	const dt_type_t **from;
	ctf_id_t *to;
	size_t n, cap;
	ctf_id_t index; /* "int", the index type of arrays */
	dt_pcb_t *pcb;
} dt_ctfw_t;

static ctf_id_t dt_ctfw_add(dt_ctfw_t *w, const dt_type_t *t);

static ctf_id_t
dt_ctfw_find(const dt_ctfw_t *w, const dt_type_t *t)
{
	for (; w != NULL; w = w->parent) {
		for (size_t i = 0; i < w->n; i++) {
			if (w->from[i] == t)
				return w->to[i];
		}
	}
	return CTF_ERR;
}

static int
dt_ctfw_map(dt_ctfw_t *w, const dt_type_t *t, ctf_id_t id)
{
	if (w->n == w->cap) {
		size_t cap = w->cap != 0 ? 2 * w->cap : 64;
		const dt_type_t **from = realloc(w->from, cap * sizeof(*from));
		ctf_id_t *to;

		if (from == NULL)
			return -1;
		w->from = from;
		if ((to = realloc(w->to, cap * sizeof(*to))) == NULL)
			return -1;
		w->to = to;
		w->cap = cap;
	}
	w->from[w->n] = t;
	w->to[w->n++] = id;
	return 0;
}

static ctf_id_t
dt_ctfw_int(dt_ctfw_t *w, const dt_type_t *t)
{
	ctf_encoding_t e = {0, 0, (uint32_t)(t->size * 8)};

	e.cte_format = (t->issigned ? CTF_INT_SIGNED : 0) | (t->ischar ? CTF_INT_CHAR : 0);
	return ctf_add_integer(w->fp, CTF_ADD_ROOT, t->name, &e);
}

static ctf_id_t
dt_ctfw_sou(dt_ctfw_t *w, const dt_type_t *t)
{
	ctf_id_t id = t->kind == DT_TK_STRUCT
	                  ? ctf_add_struct_sized(w->fp, CTF_ADD_ROOT, t->name, t->size)
	                  : ctf_add_union_sized(w->fp, CTF_ADD_ROOT, t->name, t->size);

	/* mapped before the members, which may point back at it */
	if (id == CTF_ERR || dt_ctfw_map(w, t, id) != 0)
		return CTF_ERR;
	for (const dt_member_t *m = t->members; m != NULL; m = m->next) {
		ctf_id_t mt = dt_ctfw_add(w, m->type);
		/* a bit-field: its bits, at its bit offset (little-endian units, as dt_decl.c lays them out) */
		unsigned long bitoff = (unsigned long)m->off * 8 + (unsigned long)(m->bits != 0 ? m->bitoff : 0);

		if (mt == CTF_ERR)
			return CTF_ERR;
		if (m->bits != 0) {
			ctf_encoding_t e = {0, 0, (uint32_t)m->bits};

			e.cte_format = dt_type_resolve(m->type)->issigned ? CTF_INT_SIGNED : 0;
			if ((mt = ctf_add_slice(w->fp, CTF_ADD_NONROOT, mt, &e)) == CTF_ERR)
				return CTF_ERR;
		}
		if (ctf_add_member_offset(w->fp, id, m->name, mt, bitoff) != 0)
			return CTF_ERR;
	}
	return id;
}

static ctf_id_t
dt_ctfw_new(dt_ctfw_t *w, const dt_type_t *t)
{
	ctf_encoding_t e = {0, 0, (uint32_t)(t->size * 8)};
	ctf_arinfo_t ar;
	ctf_funcinfo_t fi;
	ctf_id_t ref, id, *argv;

	switch (t->kind) {
	case DT_TK_VOID:
		return ctf_add_integer(w->fp, CTF_ADD_ROOT, "void", &e);
	case DT_TK_INT:
		return dt_ctfw_int(w, t);
	case DT_TK_FLOAT:
		e.cte_format = t->size == 4 ? CTF_FP_SINGLE : t->size == 8 ? CTF_FP_DOUBLE : CTF_FP_LDOUBLE;
		return ctf_add_float(w->fp, CTF_ADD_ROOT, t->name, &e);
	case DT_TK_PTR:
		if ((ref = t->ref != NULL ? dt_ctfw_add(w, t->ref) : 0) == CTF_ERR)
			return CTF_ERR;
		return ctf_add_pointer(w->fp, CTF_ADD_ROOT, ref);
	case DT_TK_ARRAY:
		if ((ref = dt_ctfw_add(w, t->ref)) == CTF_ERR)
			return CTF_ERR;
		ar.ctr_contents = ref;
		ar.ctr_index = w->index;
		ar.ctr_nelems = (uint32_t)t->nelems;
		return ctf_add_array(w->fp, CTF_ADD_ROOT, &ar);
	case DT_TK_STRING:
		/* D's string: char [strsize], by the name "string" */
		if ((ref = dt_ctfw_add(w, w->pcb->t_char)) == CTF_ERR)
			return CTF_ERR;
		ar.ctr_contents = ref;
		ar.ctr_index = w->index;
		ar.ctr_nelems = (uint32_t)t->size;
		if ((id = ctf_add_array(w->fp, CTF_ADD_NONROOT, &ar)) == CTF_ERR)
			return CTF_ERR;
		return ctf_add_typedef(w->fp, CTF_ADD_ROOT, "string", id);
	case DT_TK_FUNC:
		if ((ref = t->ref != NULL ? dt_ctfw_add(w, t->ref) : 0) == CTF_ERR)
			return CTF_ERR;
		if ((argv = calloc((size_t)t->nargs + 1, sizeof(ctf_id_t))) == NULL)
			return CTF_ERR;
		for (int i = 0; i < t->nargs; i++) {
			if ((argv[i] = dt_ctfw_add(w, t->args[i])) == CTF_ERR) {
				free(argv);
				return CTF_ERR;
			}
		}
		fi.ctc_return = ref;
		fi.ctc_argc = (uint32_t)t->nargs;
		fi.ctc_flags = t->varargs ? CTF_FUNC_VARARG : 0;
		id = ctf_add_function(w->fp, CTF_ADD_ROOT, &fi, argv);
		free(argv);
		return id;
	case DT_TK_STRUCT:
	case DT_TK_UNION:
		return dt_ctfw_sou(w, t);
	case DT_TK_ENUM:
		if ((id = ctf_add_enum(w->fp, CTF_ADD_ROOT, t->name)) == CTF_ERR)
			return CTF_ERR;
		for (const dt_member_t *m = t->members; m != NULL; m = m->next) {
			if (ctf_add_enumerator(w->fp, id, m->name, (int)m->value) != 0)
				return CTF_ERR;
		}
		return id;
	case DT_TK_FWD:
		return ctf_add_forward(w->fp, CTF_ADD_ROOT, t->name,
		                       t->fwdkind == DT_TK_UNION ? CTF_K_UNION
		                       : t->fwdkind == DT_TK_ENUM ? CTF_K_ENUM
		                                                  : CTF_K_STRUCT);
	case DT_TK_TYPEDEF:
		if ((ref = dt_ctfw_add(w, t->ref)) == CTF_ERR)
			return CTF_ERR;
		return ctf_add_typedef(w->fp, CTF_ADD_ROOT, t->name, ref);
	default:
		return CTF_ERR; /* <dynamic>: no C type */
	}
}

static ctf_id_t
dt_ctfw_add(dt_ctfw_t *w, const dt_type_t *t)
{
	ctf_id_t id = dt_ctfw_find(w, t);

	if (id != CTF_ERR)
		return id;
	if ((id = dt_ctfw_new(w, t)) == CTF_ERR)
		return CTF_ERR;
	if (dt_ctfw_find(w, t) == CTF_ERR && dt_ctfw_map(w, t, id) != 0)
		return CTF_ERR;
	return id;
}

/*
 * Is t one of DTrace's "C" container's (the intrinsic C types, those of
 * included headers) as opposed to "D"'s (D's typedefs, string, declared)?
 */
static bool
dt_ctfw_is_c(const dt_pcb_t *pcb, const dt_type_t *t)
{
	return dt_type_is_cdefs(pcb, t);
}

/* Add one container's types in declaration order, oldest first. */
static int
dt_ctfw_list(dt_pcb_t *pcb, dt_ctfw_t *w, const dt_type_t *list, bool c)
{
	const dt_type_t **v;
	size_t n = 0, i;
	int rv = 0;

	for (const dt_type_t *t = list; t != NULL; t = t->next)
		n++;
	if ((v = calloc(n + 1, sizeof(*v))) == NULL)
		return -1;
	i = n;
	for (const dt_type_t *t = list; t != NULL; t = t->next)
		v[--i] = t;
	for (i = 0; i < n && rv == 0; i++) {
		if (v[i]->kind != DT_TK_DYN && dt_ctfw_is_c(pcb, v[i]) == c && dt_ctfw_add(w, v[i]) == CTF_ERR)
			rv = -1;
	}
	free(v);
	return rv;
}

/* The named types (bases, typedefs), then the struct, union and enum tags. */
static int
dt_ctfw_fill(dt_pcb_t *pcb, dt_ctfw_t *w, bool c)
{
	return dt_ctfw_list(pcb, w, pcb->types, c) != 0 || dt_ctfw_list(pcb, w, pcb->tags, c) != 0 ? -1 : 0;
}

void
dt_ctf_write(dt_pcb_t *pcb, int fd, bool dtypes)
{
	dt_ctfw_t cw, dw;
	int err;

	memset(&cw, 0, sizeof(cw));
	memset(&dw, 0, sizeof(dw));
	cw.pcb = dw.pcb = pcb;
	if ((cw.fp = ctf_create(&err)) == NULL)
		return;
	cw.index = dt_ctfw_add(&cw, pcb->t_int);
	if (cw.index == CTF_ERR || dt_ctfw_fill(pcb, &cw, true) != 0)
		goto out;
	if (dtypes) {
		if ((dw.fp = ctf_create(&err)) == NULL || ctf_import(dw.fp, cw.fp) != 0)
			goto out;
		ctf_parent_name_set(dw.fp, "C");
		dw.parent = &cw;
		dw.index = cw.index;
		if (dt_ctfw_fill(pcb, &dw, false) != 0)
			goto out;
	}
	if (ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0)
		(void)ctf_write(dtypes ? dw.fp : cw.fp, fd);
out:
	if (dw.fp != NULL)
		ctf_dict_close(dw.fp);
	ctf_dict_close(cw.fp);
	free(cw.from);
	free(cw.to);
	free(dw.from);
	free(dw.to);
}
