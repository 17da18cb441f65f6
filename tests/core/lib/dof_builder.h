/*
 * tests/core/lib/dof_builder.h: build DOF images by hand for core tests.
 *
 * A test adds sections (string tables, probe descriptions, DIFOs, actions,
 * ECB descriptions, options) and gets back a complete, well-formed image:
 * header, section headers, then each section's data at its alignment.
 * Tests that check the loader's refusals build a valid image and then break
 * one field of it (dofb_sec() gives the section headers, dofb_data() the
 * data of a section).
 */
#ifndef DTRACE_TEST_DOF_BUILDER_H
#define DTRACE_TEST_DOF_BUILDER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace_abi.h"

#define DOFB_MAXSECS 128

typedef struct dofb_section {
	dof_sec_t hdr;
	uint8_t *data;
	size_t size;
} dofb_section_t;

typedef struct dofb {
	dofb_section_t secs[DOFB_MAXSECS];
	uint32_t nsecs;
	dof_hdr_t *image; /* after dofb_finish() */
	size_t imagelen;
} dofb_t;

static inline void
dofb_init(dofb_t *b)
{
	memset(b, 0, sizeof(*b));
}

static inline void
dofb_fini(dofb_t *b)
{
	for (uint32_t i = 0; i < b->nsecs; i++)
		free(b->secs[i].data);
	free(b->image);
	memset(b, 0, sizeof(*b));
}

/* Add a loadable section with a copy of `data`; returns its index. */
static inline uint32_t
dofb_add(dofb_t *b, uint32_t type, uint32_t align, uint32_t entsize, const void *data,
	 size_t size)
{
	dofb_section_t *s = &b->secs[b->nsecs];

	if (b->nsecs == DOFB_MAXSECS)
		abort();
	s->hdr.dofs_type = type;
	s->hdr.dofs_align = align;
	s->hdr.dofs_flags = (type == DOF_SECT_COMMENTS || type == DOF_SECT_SOURCE ||
			     type == DOF_SECT_UTSNAME || type == DOF_SECT_NONE)
				    ? 0
				    : DOF_SECF_LOAD;
	s->hdr.dofs_entsize = entsize;
	s->size = size;
	s->data = calloc(1, size ? size : 1);
	if (data != NULL && size != 0)
		memcpy(s->data, data, size);
	return b->nsecs++;
}

/* A string table holding `strs` (NULL-terminated list) after a leading
 * empty string; offs[i] receives the offset of strs[i]. */
static inline uint32_t
dofb_strtab(dofb_t *b, const char *const *strs, uint32_t *offs)
{
	size_t size = 1, n = 0;
	uint8_t *buf;
	uint32_t idx;

	for (n = 0; strs[n] != NULL; n++)
		size += strlen(strs[n]) + 1;
	buf = calloc(1, size);
	size = 1;
	for (size_t i = 0; i < n; i++) {
		offs[i] = (uint32_t)size;
		memcpy(buf + size, strs[i], strlen(strs[i]) + 1);
		size += strlen(strs[i]) + 1;
	}
	idx = dofb_add(b, DOF_SECT_STRTAB, 1, 0, buf, size);
	free(buf);
	return idx;
}

/* A probe description provider:mod:func:name (its own string table). */
static inline uint32_t
dofb_probedesc(dofb_t *b, const char *prov, const char *mod, const char *func, const char *name)
{
	const char *strs[] = {prov, mod, func, name, NULL};
	uint32_t offs[4];
	dof_probedesc_t pd;

	memset(&pd, 0, sizeof(pd));
	pd.dofp_strtab = dofb_strtab(b, strs, offs);
	pd.dofp_provider = offs[0];
	pd.dofp_mod = offs[1];
	pd.dofp_func = offs[2];
	pd.dofp_name = offs[3];
	return dofb_add(b, DOF_SECT_PROBEDESC, sizeof(dof_secidx_t), 0, &pd, sizeof(pd));
}

/* A probe description that also names its probe by id (dofp_id), as
 * dtrace -i's descriptions do. */
static inline uint32_t
dofb_probedesc_id(dofb_t *b, uint32_t id, const char *prov, const char *mod, const char *func,
		  const char *name)
{
	uint32_t sec = dofb_probedesc(b, prov, mod, func, name);
	dof_probedesc_t *pd = (dof_probedesc_t *)(void *)b->secs[sec].data;

	pd->dofp_id = id;
	return sec;
}

/* A DIFO: text, optional integer table, string table (raw bytes, must end
 * in NUL) and variable table; returns the DIFOHDR section's index. */
static inline uint32_t
dofb_difo(dofb_t *b, dtrace_diftype_t rtype, const dif_instr_t *text, size_t ntext,
	  const uint64_t *ints, size_t nints, const char *strs, size_t strlen_,
	  const dtrace_difv_t *vars, size_t nvars)
{
	struct {
		dtrace_diftype_t rtype;
		dof_secidx_t links[4];
	} hdr;
	size_t nlinks = 0;

	memset(&hdr, 0, sizeof(hdr));
	hdr.rtype = rtype;
	hdr.links[nlinks++] = dofb_add(b, DOF_SECT_DIF, sizeof(dif_instr_t), sizeof(dif_instr_t),
				       text, ntext * sizeof(dif_instr_t));
	if (nints != 0)
		hdr.links[nlinks++] = dofb_add(b, DOF_SECT_INTTAB, sizeof(uint64_t),
					       sizeof(uint64_t), ints, nints * sizeof(uint64_t));
	if (strlen_ != 0)
		hdr.links[nlinks++] = dofb_add(b, DOF_SECT_STRTAB, 1, 0, strs, strlen_);
	if (nvars != 0)
		hdr.links[nlinks++] = dofb_add(b, DOF_SECT_VARTAB, sizeof(uint32_t),
					       sizeof(dtrace_difv_t), vars,
					       nvars * sizeof(dtrace_difv_t));
	return dofb_add(b, DOF_SECT_DIFOHDR, sizeof(dof_secidx_t), 0, &hdr,
			sizeof(dtrace_diftype_t) + nlinks * sizeof(dof_secidx_t));
}

static inline dtrace_diftype_t
dofb_type_int(uint32_t size)
{
	dtrace_diftype_t t;

	memset(&t, 0, sizeof(t));
	t.dtdt_kind = DIF_TYPE_CTF;
	t.dtdt_size = size;
	return t;
}

static inline dtrace_diftype_t
dofb_type_string(uint32_t size)
{
	dtrace_diftype_t t;

	memset(&t, 0, sizeof(t));
	t.dtdt_kind = DIF_TYPE_STRING;
	t.dtdt_flags = DIF_TF_BYREF;
	t.dtdt_size = size;
	return t;
}

/* A DIFO returning built-in variable `var` (e.g. DIF_VAR_ARG0) as `size` bytes. */
static inline uint32_t
dofb_difo_var(dofb_t *b, uint32_t var, uint32_t size)
{
	dif_instr_t text[] = {DIF_INSTR_LDV(DIF_OP_LDGS, var, 1), DIF_INSTR_RET(1)};

	return dofb_difo(b, dofb_type_int(size), text, 2, NULL, 0, NULL, 0, NULL, 0);
}

/* A DIFO returning the constant `v` as `size` bytes. */
static inline uint32_t
dofb_difo_const(dofb_t *b, uint64_t v, uint32_t size)
{
	dif_instr_t text[] = {DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)};

	return dofb_difo(b, dofb_type_int(size), text, 2, &v, 1, NULL, 0, NULL, 0);
}

static inline dof_actdesc_t
dofb_act(uint32_t kind, uint32_t difo, uint64_t arg)
{
	dof_actdesc_t a;

	memset(&a, 0, sizeof(a));
	a.dofa_kind = kind;
	a.dofa_difo = difo;
	a.dofa_strtab = DOF_SECIDX_NONE;
	a.dofa_arg = arg;
	return a;
}

static inline uint32_t
dofb_actions(dofb_t *b, const dof_actdesc_t *acts, size_t n)
{
	return dofb_add(b, DOF_SECT_ACTDESC, sizeof(uint64_t), sizeof(dof_actdesc_t), acts,
			n * sizeof(dof_actdesc_t));
}

static inline uint32_t
dofb_ecbdesc(dofb_t *b, uint32_t probes, uint32_t pred, uint32_t actions, uint64_t uarg)
{
	dof_ecbdesc_t e;

	memset(&e, 0, sizeof(e));
	e.dofe_probes = probes;
	e.dofe_pred = pred;
	e.dofe_actions = actions;
	e.dofe_uarg = uarg;
	return dofb_add(b, DOF_SECT_ECBDESC, sizeof(uint64_t), 0, &e, sizeof(e));
}

/* Options: pairs (option, value), n of them. */
static inline uint32_t
dofb_options(dofb_t *b, const uint64_t (*pairs)[2], size_t n)
{
	dof_optdesc_t *o = calloc(n ? n : 1, sizeof(*o));
	uint32_t idx;

	for (size_t i = 0; i < n; i++) {
		o[i].dofo_option = (uint32_t)pairs[i][0];
		o[i].dofo_strtab = DOF_SECIDX_NONE;
		o[i].dofo_value = pairs[i][1];
	}
	idx = dofb_add(b, DOF_SECT_OPTDESC, sizeof(uint64_t), sizeof(dof_optdesc_t), o,
		       n * sizeof(*o));
	free(o);
	return idx;
}

/* Lay the image out: header, section headers, then each section's data. */
static inline dof_hdr_t *
dofb_finish(dofb_t *b)
{
	size_t secoff = sizeof(dof_hdr_t);
	size_t off = secoff + b->nsecs * sizeof(dof_sec_t);
	uint8_t *img;
	dof_hdr_t *h;

	for (uint32_t i = 0; i < b->nsecs; i++) {
		size_t align = b->secs[i].hdr.dofs_align ? b->secs[i].hdr.dofs_align : 1;

		off = (off + align - 1) & ~(align - 1);
		b->secs[i].hdr.dofs_offset = off;
		b->secs[i].hdr.dofs_size = b->secs[i].size;
		off += b->secs[i].size;
	}
	off = (off + 7) & ~(size_t)7;
	free(b->image);
	img = calloc(1, off);
	h = (dof_hdr_t *)img;
	h->dofh_ident[DOF_ID_MAG0] = DOF_MAG_MAG0;
	h->dofh_ident[DOF_ID_MAG1] = DOF_MAG_MAG1;
	h->dofh_ident[DOF_ID_MAG2] = DOF_MAG_MAG2;
	h->dofh_ident[DOF_ID_MAG3] = DOF_MAG_MAG3;
	h->dofh_ident[DOF_ID_MODEL] = DOF_MODEL_NATIVE;
	h->dofh_ident[DOF_ID_ENCODING] = DOF_ENCODE_NATIVE;
	h->dofh_ident[DOF_ID_VERSION] = DOF_VERSION;
	h->dofh_ident[DOF_ID_DIFVERS] = DIF_VERSION;
	h->dofh_ident[DOF_ID_DIFIREG] = DIF_DIR_NREGS;
	h->dofh_ident[DOF_ID_DIFTREG] = DIF_DTR_NREGS;
	h->dofh_hdrsize = sizeof(dof_hdr_t);
	h->dofh_secsize = sizeof(dof_sec_t);
	h->dofh_secnum = b->nsecs;
	h->dofh_secoff = secoff;
	h->dofh_loadsz = off;
	h->dofh_filesz = off;
	for (uint32_t i = 0; i < b->nsecs; i++) {
		memcpy(img + secoff + i * sizeof(dof_sec_t), &b->secs[i].hdr, sizeof(dof_sec_t));
		if (b->secs[i].size != 0)
			memcpy(img + b->secs[i].hdr.dofs_offset, b->secs[i].data, b->secs[i].size);
	}
	b->image = h;
	b->imagelen = off;
	return h;
}

/* After dofb_finish(): the header of section i in the image, and its data. */
static inline dof_sec_t *
dofb_sec(dofb_t *b, uint32_t i)
{
	return (dof_sec_t *)((uint8_t *)b->image + b->image->dofh_secoff +
			     i * b->image->dofh_secsize);
}

static inline void *
dofb_data(dofb_t *b, uint32_t i)
{
	return (uint8_t *)b->image + dofb_sec(b, i)->dofs_offset;
}

#endif /* DTRACE_TEST_DOF_BUILDER_H */
