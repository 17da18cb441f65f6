/*
 * dt_dof.c: the DOF builder and the program object's accessors.
 *
 * The image is laid out as DTrace lays it out: the header, the section
 * headers, then each section's data at its alignment.  One string table
 * holds probe-description names and printf-like formats; each DIFO is a
 * DIFOHDR section linking its DIF, integer, string and variable tables.
 * Every section is loadable, so dofh_loadsz equals dofh_filesz.
 */
#include <stdlib.h>
#include <string.h>

#include "dt_cg.h"

typedef struct dt_dofbuf {
	dof_sec_t *secs;
	uint32_t nsecs, seccap;
	uint8_t **data;     /* per section */
	char *strtab;       /* the shared string table (section strsec) */
	size_t strlen, strcap;
	uint32_t strsec;
	dt_pcb_t *pcb;
} dt_dofbuf_t;

static uint32_t
dof_add_sec(dt_dofbuf_t *b, uint32_t type, uint32_t align, uint32_t entsize, const void *data, size_t size)
{
	if (b->nsecs == b->seccap) {
		uint32_t n = b->seccap ? b->seccap * 2 : 32;
		dof_sec_t *s = realloc(b->secs, n * sizeof(*s));
		uint8_t **d = realloc(b->data, n * sizeof(*d));
		if (s == NULL || d == NULL) {
			free(s != NULL ? s : b->secs);
			free(d != NULL ? d : b->data);
			b->secs = NULL;
			b->data = NULL;
			dt_error(b->pcb, 0, D_NOMEM, "failed to allocate memory");
		}
		b->secs = s;
		b->data = d;
		b->seccap = n;
	}
	dof_sec_t *s = &b->secs[b->nsecs];
	memset(s, 0, sizeof(*s));
	s->dofs_type = type;
	s->dofs_align = align;
	s->dofs_flags = DOF_SECF_LOAD;
	s->dofs_entsize = entsize;
	s->dofs_size = size;
	b->data[b->nsecs] = size ? malloc(size) : NULL;
	if (size)
		memcpy(b->data[b->nsecs], data, size);
	return b->nsecs++;
}

static uint32_t
dof_add_string(dt_dofbuf_t *b, const char *s)
{
	size_t n = strlen(s) + 1;
	for (size_t off = 0; off < b->strlen;) {
		if (strcmp(b->strtab + off, s) == 0)
			return (uint32_t)off;
		off += strlen(b->strtab + off) + 1;
	}
	if (b->strlen + n > b->strcap) {
		size_t c = b->strcap ? b->strcap * 2 : 256;
		while (c < b->strlen + n)
			c *= 2;
		char *p = realloc(b->strtab, c);
		if (p == NULL)
			dt_error(b->pcb, 0, D_NOMEM, "failed to allocate memory");
		b->strtab = p;
		b->strcap = c;
	}
	memcpy(b->strtab + b->strlen, s, n);
	uint32_t off = (uint32_t)b->strlen;
	b->strlen += n;
	return off;
}

static uint32_t
dof_add_difo(dt_dofbuf_t *b, const dt_difo_t *dp)
{
	dof_secidx_t links[4];
	int n = 0;
	links[n++] = dof_add_sec(b, DOF_SECT_DIF, sizeof(dif_instr_t), sizeof(dif_instr_t), dp->buf,
				 dp->len * sizeof(dif_instr_t));
	if (dp->intlen > 0)
		links[n++] = dof_add_sec(b, DOF_SECT_INTTAB, sizeof(uint64_t), sizeof(uint64_t), dp->inttab,
					 dp->intlen * sizeof(uint64_t));
	if (dp->strlen > 0)
		links[n++] = dof_add_sec(b, DOF_SECT_STRTAB, 1, 0, dp->strtab, dp->strlen);
	if (dp->varlen > 0)
		links[n++] = dof_add_sec(b, DOF_SECT_VARTAB, sizeof(uint32_t), sizeof(dtrace_difv_t), dp->vartab,
					 dp->varlen * sizeof(dtrace_difv_t));
	size_t sz = offsetof(dof_difohdr_t, dofd_links) + (size_t)n * sizeof(dof_secidx_t);
	uint8_t hdr[sizeof(dof_difohdr_t) + 4 * sizeof(dof_secidx_t)];
	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr, &dp->rtype, sizeof(dp->rtype));
	memcpy(hdr + offsetof(dof_difohdr_t, dofd_links), links, (size_t)n * sizeof(dof_secidx_t));
	return dof_add_sec(b, DOF_SECT_DIFOHDR, sizeof(dof_secidx_t), 0, hdr, sz);
}

static void
dof_free(dt_dofbuf_t *b)
{
	for (uint32_t i = 0; i < b->nsecs; i++)
		free(b->data[i]);
	free(b->data);
	free(b->secs);
	free(b->strtab);
}

/* Lay out sections into one image. */
static void *
dof_image(dt_dofbuf_t *b, size_t *sizep)
{
	size_t off = sizeof(dof_hdr_t);
	off = (off + 7) & ~(size_t)7;
	size_t secoff = off;
	off += (size_t)b->nsecs * sizeof(dof_sec_t);
	for (uint32_t i = 0; i < b->nsecs; i++) {
		size_t a = b->secs[i].dofs_align ? b->secs[i].dofs_align : 1;
		off = (off + a - 1) / a * a;
		b->secs[i].dofs_offset = off;
		off += b->secs[i].dofs_size;
	}
	off = (off + 7) & ~(size_t)7;
	uint8_t *img = calloc(1, off);
	if (img == NULL)
		return NULL;
	dof_hdr_t *h = (dof_hdr_t *)img;
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
	h->dofh_flags = 0;
	h->dofh_hdrsize = sizeof(dof_hdr_t);
	h->dofh_secsize = sizeof(dof_sec_t);
	h->dofh_secnum = b->nsecs;
	h->dofh_secoff = secoff;
	h->dofh_loadsz = off;
	h->dofh_filesz = off;
	memcpy(img + secoff, b->secs, (size_t)b->nsecs * sizeof(dof_sec_t));
	for (uint32_t i = 0; i < b->nsecs; i++)
		if (b->secs[i].dofs_size)
			memcpy(img + b->secs[i].dofs_offset, b->data[i], b->secs[i].dofs_size);
	*sizep = off;
	return img;
}

void
dt_dof_build(dt_pcb_t *pcb, struct dt_ecb_out *ecbs, int necbs)
{
	dt_dofbuf_t b;
	dt_cprog_t *prog = pcb->prog;
	uint64_t uarg = prog->uarg_base;
	size_t nacts = 0;

	memset(&b, 0, sizeof(b));
	b.pcb = pcb;
	for (int i = 0; i < necbs; i++)
		nacts += (size_t)ecbs[i].nacts;
	prog->ecbs = calloc((size_t)necbs + 1, sizeof(dt_cecb_t));
	prog->acts = calloc(nacts + 1, sizeof(dt_caction_t));
	if (prog->ecbs == NULL || prog->acts == NULL)
		dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");

	/* section 0: the shared string table, filled in at the end */
	b.strsec = dof_add_sec(&b, DOF_SECT_STRTAB, 1, 0, NULL, 0);
	dof_add_string(&b, "");

	for (int i = 0; i < necbs; i++) {
		struct dt_ecb_out *e = &ecbs[i];
		dof_probedesc_t pd;
		dof_ecbdesc_t ed;
		memset(&pd, 0, sizeof(pd));
		pd.dofp_strtab = b.strsec;
		pd.dofp_provider = dof_add_string(&b, e->pd.dtpd_provider);
		pd.dofp_mod = dof_add_string(&b, e->pd.dtpd_mod);
		pd.dofp_func = dof_add_string(&b, e->pd.dtpd_func);
		pd.dofp_name = dof_add_string(&b, e->pd.dtpd_name);
		pd.dofp_id = e->pd.dtpd_id;
		memset(&ed, 0, sizeof(ed));
		ed.dofe_probes = dof_add_sec(&b, DOF_SECT_PROBEDESC, sizeof(dof_secidx_t), 0, &pd, sizeof(pd));
		ed.dofe_pred = e->pred != NULL ? dof_add_difo(&b, e->pred) : DOF_SECIDX_NONE;
		ed.dofe_actions = DOF_SECIDX_NONE;
		ed.dofe_uarg = uarg + (uint64_t)i;
		prog->ecbs[i].desc = e->desc;
		prog->ecbs[i].clause = e->clause;
		prog->ecbs[i].uarg = ed.dofe_uarg;
		prog->ecbs[i].descattr = e->descattr;
		prog->ecbs[i].stmtattr = e->stmtattr;

		if (e->nacts > 0) {
			dof_actdesc_t *ad = calloc((size_t)e->nacts, sizeof(*ad));
			if (ad == NULL)
				dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
			for (int j = 0; j < e->nacts; j++) {
				struct dt_stmt_act *a = &e->acts[j];
				dt_caction_t *ca = &prog->acts[prog->nacts];
				ad[j].dofa_difo = a->difo != NULL ? dof_add_difo(&b, a->difo) : DOF_SECIDX_NONE;
				ad[j].dofa_kind = a->kind;
				ad[j].dofa_ntuple = a->ntuple;
				if (DTRACEACT_ISPRINTFLIKE(a->kind) && a->format != NULL) {
					ad[j].dofa_strtab = b.strsec;
					ad[j].dofa_arg = dof_add_string(&b, a->format);
				} else if (a->strdata != NULL) {
					ad[j].dofa_strtab = b.strsec;
					ad[j].dofa_arg = dof_add_string(&b, a->strdata);
				} else {
					ad[j].dofa_strtab = DOF_SECIDX_NONE;
					ad[j].dofa_arg = a->arg;
				}
				ad[j].dofa_uarg = prog->uarg_base + prog->nacts;
				ca->kind = a->kind;
				ca->ecb = i;
				ca->stmt = a->stmt;
				ca->format = NULL;
				ca->agg = a->agg;
				ca->arg = ad[j].dofa_arg;
				ca->ptype = a->ptype;
				if (a->format != NULL)
					ca->format = strdup(a->format);
				prog->nacts++;
			}
			ed.dofe_actions = dof_add_sec(&b, DOF_SECT_ACTDESC, sizeof(uint64_t), sizeof(dof_actdesc_t),
						      ad, (size_t)e->nacts * sizeof(dof_actdesc_t));
			free(ad);
		}
		dof_add_sec(&b, DOF_SECT_ECBDESC, sizeof(uint64_t), 0, &ed, sizeof(ed));
		prog->necbs++;
	}
	/* the ECB cookies and the action cookies share one space: keep them apart */
	b.data[b.strsec] = (uint8_t *)b.strtab;
	b.secs[b.strsec].dofs_size = b.strlen;
	b.strtab = NULL;
	prog->dof = dof_image(&b, &prog->dof_size);
	dof_free(&b);
	if (prog->dof == NULL)
		dt_error(pcb, 0, D_NOMEM, "failed to allocate memory");
}

int
dt_dof_options(const dtrace_optval_t *opts, void **dofp, size_t *sizep)
{
	dt_dofbuf_t b;
	dof_optdesc_t od[DTRACEOPT_MAX];
	volatile int n = 0;
	dt_pcb_t pcb;
	dt_cprog_t prog;

	memset(&b, 0, sizeof(b));
	memset(&pcb, 0, sizeof(pcb));
	memset(&prog, 0, sizeof(prog));
	pcb.prog = &prog;
	b.pcb = &pcb;
	if (setjmp(pcb.jmp) != 0) {
		dof_free(&b);
		return -1;
	}
	for (int i = 0; i < DTRACEOPT_MAX; i++) {
		if (opts[i] == DTRACEOPT_UNSET)
			continue;
		od[n].dofo_option = (uint32_t)i;
		od[n].dofo_strtab = DOF_SECIDX_NONE;
		od[n].dofo_value = (uint64_t)opts[i];
		n++;
	}
	dof_add_sec(&b, DOF_SECT_OPTDESC, sizeof(uint64_t), sizeof(dof_optdesc_t), od,
		    (size_t)n * sizeof(dof_optdesc_t));
	*dofp = dof_image(&b, sizep);
	dof_free(&b);
	return *dofp != NULL ? 0 : -1;
}
