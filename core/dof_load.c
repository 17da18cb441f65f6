/*
 * core/dof_load.c: loading a DOF image into an enabling.
 *
 * The image is untrusted: it comes from any consumer.  dtrace_ctl() copies
 * it into core memory first (so it cannot change under us), then this file
 * checks it completely before anything is built from it:
 *   - the header: magic, data model, encoding, DOF and DIF versions,
 *     register counts, zero padding, flags, header/section-header sizes and
 *     alignment, and that the section headers lie inside the image;
 *   - every section: known type, load flag consistent with the type,
 *     power-of-two alignment, offset aligned, data inside the loaded image,
 *     string tables NUL-terminated; sections describing providers or probes
 *     are refused in an enabling;
 *   - relocations: header shape, table entry size and alignment, target
 *     offsets in bounds and aligned, known types;
 *   - each ECB description, probe description (names in the string table
 *     and fitting the name fields), action list (entry size, count, format
 *     strings inside their table) and DIFO (its sub-sections' types,
 *     alignment, entry sizes, no duplicates, total size, DIF text present),
 *     then the DIF validator on every DIFO;
 *   - the option section: entry size, no string values, no unset values,
 *     and each option accepted by the state.
 * Any failure refuses the whole image, frees everything built so far, and
 * leaves a precise reason in the state (dtrace_state_errmsg()).
 *
 * Runs with DTRACE_LOCK_FRAMEWORK held, never in probe context.
 */
#include "dtrace_impl.h"

#define DOF_ERR(state, msg) (dtrace_state_seterr((state), (msg), NULL), -1)

static bool
dtrace_dof_ispow2(uint64_t x)
{
	return (x & (x - 1)) == 0;
}

/* The section header at index i; the caller checked i < secnum. */
static dof_sec_t *
dtrace_dof_sechdr(dof_hdr_t *dof, dof_secidx_t i)
{
	return (dof_sec_t *)((uintptr_t)dof + (uintptr_t)dof->dofh_secoff +
			     (uintptr_t)i * dof->dofh_secsize);
}

/* Section i if it exists, is loadable and (unless type is NONE) of `type`. */
static dof_sec_t *
dtrace_dof_sect(dof_hdr_t *dof, dtrace_state_t *state, uint32_t type, dof_secidx_t i)
{
	dof_sec_t *sec;

	if (i >= dof->dofh_secnum) {
		dtrace_state_seterr(state, "referenced section index is invalid", NULL);
		return NULL;
	}
	sec = dtrace_dof_sechdr(dof, i);
	if (!(sec->dofs_flags & DOF_SECF_LOAD)) {
		dtrace_state_seterr(state, "referenced section is not loadable", NULL);
		return NULL;
	}
	if (type != DOF_SECT_NONE && type != sec->dofs_type) {
		dtrace_state_seterr(state, "referenced section is the wrong type", NULL);
		return NULL;
	}
	return sec;
}

static void *
dtrace_dof_data(dof_hdr_t *dof, const dof_sec_t *sec)
{
	return (void *)((uintptr_t)dof + (uintptr_t)sec->dofs_offset);
}

/* --- Probe descriptions ------------------------------------------------- */

static int
dtrace_dof_name(dtrace_state_t *state, const char *str, uint64_t strsize, dof_stridx_t off,
		char *dst, size_t dstsize, const char *what)
{
	size_t len;

	if (off >= strsize)
		return DOF_ERR(state, what);
	len = dtrace_strlen(str + off, strsize - off);
	if (len >= dstsize)
		return DOF_ERR(state, "probe description name too long");
	memcpy(dst, str + off, len);
	dst[len] = '\0';
	return 0;
}

static int
dtrace_dof_probedesc(dof_hdr_t *dof, dtrace_state_t *state, dof_sec_t *sec,
		     dtrace_probedesc_t *desc)
{
	dof_probedesc_t *probe;
	dof_sec_t *strtab;
	const char *str;

	if (sec->dofs_align != sizeof(dof_secidx_t))
		return DOF_ERR(state, "bad alignment in probe description");
	if (sec->dofs_size < sizeof(dof_probedesc_t))
		return DOF_ERR(state, "truncated probe description");

	probe = dtrace_dof_data(dof, sec);
	if ((strtab = dtrace_dof_sect(dof, state, DOF_SECT_STRTAB, probe->dofp_strtab)) == NULL)
		return -1;
	str = dtrace_dof_data(dof, strtab);

	memset(desc, 0, sizeof(*desc));
	if (dtrace_dof_name(state, str, strtab->dofs_size, probe->dofp_provider,
			    desc->dtpd_provider, sizeof(desc->dtpd_provider),
			    "corrupt probe provider") != 0 ||
	    dtrace_dof_name(state, str, strtab->dofs_size, probe->dofp_mod, desc->dtpd_mod,
			    sizeof(desc->dtpd_mod), "corrupt probe module") != 0 ||
	    dtrace_dof_name(state, str, strtab->dofs_size, probe->dofp_func, desc->dtpd_func,
			    sizeof(desc->dtpd_func), "corrupt probe function") != 0 ||
	    dtrace_dof_name(state, str, strtab->dofs_size, probe->dofp_name, desc->dtpd_name,
			    sizeof(desc->dtpd_name), "corrupt probe name") != 0)
		return -1;
	desc->dtpd_id = probe->dofp_id; /* a description may name a probe by id */
	return 0;
}

/* --- DIFOs -------------------------------------------------------------- */

static void
dtrace_dof_difo_free(dtrace_difo_t *dp)
{
	if (dp->dtdo_buf != NULL)
		dtrace_port_free(dp->dtdo_buf, (size_t)dp->dtdo_len * sizeof(dif_instr_t));
	if (dp->dtdo_inttab != NULL)
		dtrace_port_free(dp->dtdo_inttab, (size_t)dp->dtdo_intlen * sizeof(uint64_t));
	if (dp->dtdo_strtab != NULL)
		dtrace_port_free(dp->dtdo_strtab, dp->dtdo_strlen);
	if (dp->dtdo_vartab != NULL)
		dtrace_port_free(dp->dtdo_vartab, (size_t)dp->dtdo_varlen * sizeof(dtrace_difv_t));
	dtrace_port_free(dp, sizeof(*dp));
}

/* The privilege the DIF validator checks against, destructive or not. */
static uint32_t dtrace_dof_difpriv;

static dtrace_difo_t *
dtrace_dof_difo(dof_hdr_t *dof, dtrace_state_t *state, dof_sec_t *sec)
{
	static const struct {
		uint32_t section;
		uint32_t entsize;
		uint32_t align;
		const char *dupmsg;
	} parts[] = {
		{DOF_SECT_DIF, sizeof(dif_instr_t), sizeof(dif_instr_t), "multiple DIF sections"},
		{DOF_SECT_INTTAB, sizeof(uint64_t), sizeof(uint64_t), "multiple integer tables"},
		{DOF_SECT_STRTAB, 0, sizeof(char), "multiple string tables"},
		{DOF_SECT_VARTAB, sizeof(dtrace_difv_t), sizeof(uint32_t),
		 "multiple variable tables"},
	};
	dof_difohdr_t *dofd;
	dtrace_difo_t *dp;
	uint64_t total = 0, nlinks;
	char why[96];

	if (sec->dofs_type != DOF_SECT_DIFOHDR) {
		dtrace_state_seterr(state, "invalid DIFO header section", NULL);
		return NULL;
	}
	if (sec->dofs_align != sizeof(dof_secidx_t)) {
		dtrace_state_seterr(state, "bad alignment in DIFO header", NULL);
		return NULL;
	}
	if (sec->dofs_size < sizeof(dof_difohdr_t) || sec->dofs_size % sizeof(dof_secidx_t) != 0) {
		dtrace_state_seterr(state, "bad size in DIFO header", NULL);
		return NULL;
	}

	dofd = dtrace_dof_data(dof, sec);
	nlinks = (sec->dofs_size - sizeof(*dofd)) / sizeof(dof_secidx_t) + 1;
	if ((dp = dtrace_port_zalloc(sizeof(*dp))) == NULL) {
		dtrace_state_seterr(state, "out of memory loading DIFO", NULL);
		return NULL;
	}
	dp->dtdo_rtype = dofd->dofd_rtype;

	for (uint64_t l = 0; l < nlinks; l++) {
		dof_sec_t *sub = dtrace_dof_sect(dof, state, DOF_SECT_NONE, dofd->dofd_links[l]);
		size_t i;
		void *copy;

		if (sub == NULL)
			goto err;
		if (total + sub->dofs_size > DTRACE_DIFO_MAXSIZE) {
			dtrace_state_seterr(state, "DIFO exceeds maximum size", NULL);
			goto err;
		}
		total += sub->dofs_size;

		for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
			if (sub->dofs_type == parts[i].section)
				break;
		}
		if (i == sizeof(parts) / sizeof(parts[0])) {
			dtrace_state_seterr(state, "unrecognized DIFO subsection", NULL);
			goto err;
		}
		if (sub->dofs_align != parts[i].align) {
			dtrace_state_seterr(state, "bad alignment in DIFO subsection", NULL);
			goto err;
		}
		if (sub->dofs_entsize != parts[i].entsize) {
			dtrace_state_seterr(state, "entry size mismatch in DIFO subsection", NULL);
			goto err;
		}
		if (sub->dofs_entsize != 0 && sub->dofs_size % sub->dofs_entsize != 0) {
			dtrace_state_seterr(state, "corrupt entry size in DIFO subsection", NULL);
			goto err;
		}
		if (sub->dofs_size == 0) {
			if (parts[i].section == DOF_SECT_DIF) {
				dtrace_state_seterr(state, "empty DIF text", NULL);
				goto err;
			}
			continue; /* an empty table is no table */
		}

#define DOF_PART(field, len, count)                                                                \
	do {                                                                                       \
		if (dp->field != NULL) {                                                           \
			dtrace_state_seterr(state, parts[i].dupmsg, NULL);                         \
			goto err;                                                                  \
		}                                                                                  \
		if ((copy = dtrace_port_zalloc(sub->dofs_size)) == NULL) {                         \
			dtrace_state_seterr(state, "out of memory loading DIFO", NULL);            \
			goto err;                                                                  \
		}                                                                                  \
		memcpy(copy, dtrace_dof_data(dof, sub), sub->dofs_size);                           \
		dp->field = copy;                                                                  \
		dp->len = (uint32_t)(count);                                                       \
	} while (0)

		switch (parts[i].section) {
		case DOF_SECT_DIF:
			DOF_PART(dtdo_buf, dtdo_len, sub->dofs_size / sizeof(dif_instr_t));
			break;
		case DOF_SECT_INTTAB:
			DOF_PART(dtdo_inttab, dtdo_intlen, sub->dofs_size / sizeof(uint64_t));
			break;
		case DOF_SECT_STRTAB:
			DOF_PART(dtdo_strtab, dtdo_strlen, sub->dofs_size);
			break;
		case DOF_SECT_VARTAB:
			DOF_PART(dtdo_vartab, dtdo_varlen, sub->dofs_size / sizeof(dtrace_difv_t));
			break;
		}
#undef DOF_PART
	}

	if (dp->dtdo_buf == NULL) {
		dtrace_state_seterr(state, "missing DIF text", NULL);
		goto err;
	}

	/* strings of unspecified size take the default string size, as DTrace */
	for (uint32_t i = 0; i < dp->dtdo_varlen; i++) {
		dtrace_difv_t *v = &dp->dtdo_vartab[i];

		if (v->dtdv_id >= DIF_VAR_OTHER_UBASE && v->dtdv_type.dtdt_kind == DIF_TYPE_STRING &&
		    v->dtdv_type.dtdt_size == 0)
			v->dtdv_type.dtdt_size = DTRACE_STRSIZE_DEFAULT;
	}

	why[0] = '\0';
	if (dtrace_difo_validate(dp, &state->dts_vstate, DIF_DIR_NREGS, dtrace_dof_difpriv, why,
				 sizeof(why)) != 0) {
		dtrace_state_seterr(state, "invalid DIF", why);
		goto err;
	}
	dp->dtdo_destructive = dtrace_difo_destructive(dp);
	if (dtrace_difo_init(dp, &state->dts_vstate) != 0) {
		dtrace_state_seterr(state, "out of memory loading DIFO", NULL);
		goto err;
	}
	return dp;

err:
	dtrace_dof_difo_free(dp);
	return NULL;
}

/* --- Actions ------------------------------------------------------------ */

static void
dtrace_dof_actlist_free(dtrace_actdesc_t *first, dtrace_state_t *state)
{
	dtrace_actdesc_t *act, *next;

	for (act = first; act != NULL; act = next) {
		next = act->dtad_next;
		dtrace_actdesc_release(act, state);
	}
}

static dtrace_actdesc_t *
dtrace_dof_actdesc(dof_hdr_t *dof, dtrace_state_t *state, dof_sec_t *sec)
{
	dtrace_actdesc_t *first = NULL, *last = NULL, *act;

	if (sec->dofs_align != sizeof(uint64_t)) {
		dtrace_state_seterr(state, "bad alignment in action description", NULL);
		return NULL;
	}
	if (sec->dofs_entsize != sizeof(dof_actdesc_t)) {
		dtrace_state_seterr(state, "bad entry size in action description", NULL);
		return NULL;
	}
	if (sec->dofs_size < sec->dofs_entsize || sec->dofs_size % sec->dofs_entsize != 0) {
		dtrace_state_seterr(state, "truncated action description", NULL);
		return NULL;
	}
	if (sec->dofs_size / sec->dofs_entsize > DTRACE_ACTIONS_MAX) {
		dtrace_state_seterr(state, "too many actions", NULL);
		return NULL;
	}

	for (uint64_t offs = 0; offs < sec->dofs_size; offs += sec->dofs_entsize) {
		dof_actdesc_t *desc = (dof_actdesc_t *)((uintptr_t)dtrace_dof_data(dof, sec) + offs);
		dtrace_actkind_t kind = (dtrace_actkind_t)desc->dofa_kind;
		uint64_t arg = desc->dofa_arg;

		if (desc->dofa_kind > UINT16_MAX) {
			dtrace_state_seterr(state, "invalid action kind", NULL);
			goto err;
		}

		/* printf-like actions (and print()'s type) carry a string */
		if ((DTRACEACT_ISPRINTFLIKE(kind) &&
		     (kind != DTRACEACT_PRINTA || desc->dofa_strtab != DOF_SECIDX_NONE)) ||
		    (kind == DTRACEACT_DIFEXPR && desc->dofa_strtab != DOF_SECIDX_NONE)) {
			dof_sec_t *strtab =
				dtrace_dof_sect(dof, state, DOF_SECT_STRTAB, desc->dofa_strtab);
			const char *str;
			size_t len;
			char *fmt;

			if (strtab == NULL)
				goto err;
			str = dtrace_dof_data(dof, strtab);
			if (desc->dofa_arg >= strtab->dofs_size) {
				dtrace_state_seterr(state, "bogus format string", NULL);
				goto err;
			}
			len = dtrace_strlen(str + desc->dofa_arg, strtab->dofs_size - desc->dofa_arg);
			if (len == 0) {
				dtrace_state_seterr(state, "empty format string", NULL);
				goto err;
			}
			if ((fmt = dtrace_port_zalloc(len + 1)) == NULL) {
				dtrace_state_seterr(state, "out of memory loading actions", NULL);
				goto err;
			}
			memcpy(fmt, str + desc->dofa_arg, len);
			arg = (uint64_t)(uintptr_t)fmt;
		} else if (DTRACEACT_ISPRINTFLIKE(kind) || kind == DTRACEACT_DIFEXPR) {
			/* no string: the argument must not pass for one */
			arg = 0;
		}

		if ((act = dtrace_port_zalloc(sizeof(*act))) == NULL) {
			if (arg != 0 && (DTRACEACT_ISPRINTFLIKE(kind) || kind == DTRACEACT_DIFEXPR))
				dtrace_strfree((char *)(uintptr_t)arg);
			dtrace_state_seterr(state, "out of memory loading actions", NULL);
			goto err;
		}
		act->dtad_kind = kind;
		act->dtad_ntuple = desc->dofa_ntuple;
		act->dtad_arg = arg;
		act->dtad_uarg = desc->dofa_uarg;
		act->dtad_refcnt = 1;
		if (last != NULL)
			last->dtad_next = act;
		else
			first = act;
		last = act;

		if (desc->dofa_difo != DOF_SECIDX_NONE) {
			dof_sec_t *difosec =
				dtrace_dof_sect(dof, state, DOF_SECT_DIFOHDR, desc->dofa_difo);

			if (difosec == NULL ||
			    (act->dtad_difo = dtrace_dof_difo(dof, state, difosec)) == NULL)
				goto err;
		}
	}
	return first;

err:
	dtrace_dof_actlist_free(first, state);
	return NULL;
}

static dtrace_ecbdesc_t *
dtrace_dof_ecbdesc(dof_hdr_t *dof, dtrace_state_t *state, dof_sec_t *sec)
{
	dof_ecbdesc_t *ecb;
	dtrace_ecbdesc_t *ep;
	dof_sec_t *s;

	if (sec->dofs_align != sizeof(uint64_t)) {
		dtrace_state_seterr(state, "bad alignment in ECB description", NULL);
		return NULL;
	}
	if (sec->dofs_size < sizeof(dof_ecbdesc_t)) {
		dtrace_state_seterr(state, "truncated ECB description", NULL);
		return NULL;
	}
	ecb = dtrace_dof_data(dof, sec);
	if ((s = dtrace_dof_sect(dof, state, DOF_SECT_PROBEDESC, ecb->dofe_probes)) == NULL)
		return NULL;
	if ((ep = dtrace_port_zalloc(sizeof(*ep))) == NULL) {
		dtrace_state_seterr(state, "out of memory loading ECB description", NULL);
		return NULL;
	}
	ep->dted_refcnt = 1;
	ep->dted_uarg = ecb->dofe_uarg;
	if (dtrace_dof_probedesc(dof, state, s, &ep->dted_probe) != 0)
		goto err;

	if (ecb->dofe_pred != DOF_SECIDX_NONE) {
		if ((s = dtrace_dof_sect(dof, state, DOF_SECT_DIFOHDR, ecb->dofe_pred)) == NULL ||
		    (ep->dted_pred = dtrace_dof_difo(dof, state, s)) == NULL)
			goto err;
	}
	if (ecb->dofe_actions != DOF_SECIDX_NONE) {
		if ((s = dtrace_dof_sect(dof, state, DOF_SECT_ACTDESC, ecb->dofe_actions)) == NULL ||
		    (ep->dted_action = dtrace_dof_actdesc(dof, state, s)) == NULL)
			goto err;
	}
	return ep;

err:
	dtrace_ecbdesc_release(ep, state);
	return NULL;
}

/* --- Relocations -------------------------------------------------------- */

/* Check a relocation header and apply it with base `ubase` (0 for an
 * enabling: the entries are checked, the values stay). */
static int
dtrace_dof_relocate(dof_hdr_t *dof, dtrace_state_t *state, dof_sec_t *sec, uint64_t ubase,
		    bool apply)
{
	dof_relohdr_t *dofr;
	dof_sec_t *ss, *rs, *ts;

	if (sec->dofs_size < sizeof(dof_relohdr_t) || sec->dofs_align != sizeof(dof_secidx_t))
		return DOF_ERR(state, "invalid relocation header");
	dofr = dtrace_dof_data(dof, sec);
	if ((ss = dtrace_dof_sect(dof, state, DOF_SECT_STRTAB, dofr->dofr_strtab)) == NULL ||
	    (rs = dtrace_dof_sect(dof, state, DOF_SECT_RELTAB, dofr->dofr_relsec)) == NULL ||
	    (ts = dtrace_dof_sect(dof, state, DOF_SECT_NONE, dofr->dofr_tgtsec)) == NULL)
		return -1;
	if (rs->dofs_entsize < sizeof(dof_relodesc_t) || rs->dofs_align != sizeof(uint64_t) ||
	    rs->dofs_size % rs->dofs_entsize != 0)
		return DOF_ERR(state, "invalid relocation section");

	for (uint64_t offs = 0; offs < rs->dofs_size; offs += rs->dofs_entsize) {
		dof_relodesc_t *r = (dof_relodesc_t *)((uintptr_t)dtrace_dof_data(dof, rs) + offs);
		uintptr_t taddr;

		if (r->dofr_name >= ss->dofs_size)
			return DOF_ERR(state, "bad relocation symbol name");
		switch (r->dofr_type) {
		case DOF_RELO_NONE:
			break;
		case DOF_RELO_SETX:
			if (r->dofr_offset >= ts->dofs_size ||
			    r->dofr_offset + sizeof(uint64_t) > ts->dofs_size)
				return DOF_ERR(state, "bad relocation offset");
			taddr = (uintptr_t)dtrace_dof_data(dof, ts) + (uintptr_t)r->dofr_offset;
			if (taddr & (sizeof(uint64_t) - 1))
				return DOF_ERR(state, "misaligned setx relocation");
			if (apply) {
				uint64_t v;
				memcpy(&v, (void *)taddr, sizeof(v));
				v += ubase;
				memcpy((void *)taddr, &v, sizeof(v));
			}
			break;
		default:
			return DOF_ERR(state, "invalid relocation type");
		}
	}
	return 0;
}

/* --- The image ---------------------------------------------------------- */

static int
dtrace_dof_header(dof_hdr_t *dof, size_t size, dtrace_state_t *state)
{
	uint64_t len, seclen;

	if (size < sizeof(dof_hdr_t))
		return DOF_ERR(state, "truncated DOF header");
	if (memcmp(&dof->dofh_ident[DOF_ID_MAG0], DOF_MAG_STRING, DOF_MAG_STRLEN) != 0)
		return DOF_ERR(state, "DOF magic string mismatch");
	if (dof->dofh_ident[DOF_ID_MODEL] != DOF_MODEL_ILP32 &&
	    dof->dofh_ident[DOF_ID_MODEL] != DOF_MODEL_LP64)
		return DOF_ERR(state, "DOF has invalid data model");
	if (dof->dofh_ident[DOF_ID_ENCODING] != DOF_ENCODE_NATIVE)
		return DOF_ERR(state, "DOF encoding mismatch");
	if (dof->dofh_ident[DOF_ID_VERSION] < DOF_VERSION_1 ||
	    dof->dofh_ident[DOF_ID_VERSION] > DOF_VERSION_3)
		return DOF_ERR(state, "DOF version mismatch");
	if (dof->dofh_ident[DOF_ID_DIFVERS] != DIF_VERSION_2)
		return DOF_ERR(state, "DOF uses unsupported instruction set");
	if (dof->dofh_ident[DOF_ID_DIFIREG] > DIF_DIR_NREGS)
		return DOF_ERR(state, "DOF uses too many integer registers");
	if (dof->dofh_ident[DOF_ID_DIFTREG] > DIF_DTR_NREGS)
		return DOF_ERR(state, "DOF uses too many tuple registers");
	for (int i = DOF_ID_PAD; i < DOF_ID_SIZE; i++) {
		if (dof->dofh_ident[i] != 0)
			return DOF_ERR(state, "DOF has invalid ident byte set");
	}
	if (dof->dofh_flags & ~(uint32_t)DOF_FL_VALID)
		return DOF_ERR(state, "DOF has invalid flag bits set");
	if (dof->dofh_hdrsize != sizeof(dof_hdr_t))
		return DOF_ERR(state, "DOF header size mismatch");
	if (dof->dofh_loadsz != size)
		return DOF_ERR(state, "DOF load size mismatch");
	if (dof->dofh_filesz < dof->dofh_loadsz)
		return DOF_ERR(state, "DOF file size less than load size");
	if (dof->dofh_secsize < sizeof(dof_sec_t))
		return DOF_ERR(state, "section header size too small");
	if (dof->dofh_secsize & (sizeof(uint64_t) - 1))
		return DOF_ERR(state, "misaligned section size");

	len = dof->dofh_loadsz;
	seclen = (uint64_t)dof->dofh_secnum * (uint64_t)dof->dofh_secsize;
	if (dof->dofh_secoff > len || seclen > len || dof->dofh_secoff + seclen > len)
		return DOF_ERR(state, "truncated section headers");
	if (dof->dofh_secoff < sizeof(dof_hdr_t) && dof->dofh_secnum != 0)
		return DOF_ERR(state, "section headers overlap the DOF header");
	if (dof->dofh_secoff & (sizeof(uint64_t) - 1))
		return DOF_ERR(state, "misaligned section headers");
	return 0;
}

/* Section kinds that describe providers (USDT), not enablings. */
static bool
dtrace_dof_isprovider(uint32_t type)
{
	return type == DOF_SECT_PROVIDER || type == DOF_SECT_PROBES || type == DOF_SECT_PRARGS ||
	       type == DOF_SECT_PROFFS || type == DOF_SECT_PRENOFFS;
}

static int
dtrace_dof_sections(dof_hdr_t *dof, dtrace_state_t *state)
{
	uint64_t len = dof->dofh_loadsz;

	for (uint32_t i = 0; i < dof->dofh_secnum; i++) {
		dof_sec_t *sec = dtrace_dof_sechdr(dof, i);

		if (sec->dofs_type > DOF_SECT_MAX)
			return DOF_ERR(state, "unknown section type");
		if (dtrace_dof_isprovider(sec->dofs_type))
			return DOF_ERR(state, "illegal sections for enabling");
		if (DOF_SEC_ISLOADABLE(sec->dofs_type) && !(sec->dofs_flags & DOF_SECF_LOAD))
			return DOF_ERR(state, "loadable section with load flag unset");
		if (sec->dofs_flags & ~(uint32_t)DOF_SECF_LOAD)
			return DOF_ERR(state, "section has invalid flag bits set");
		if (!(sec->dofs_flags & DOF_SECF_LOAD))
			continue; /* comments, source: never looked at */
		if (sec->dofs_align == 0 || !dtrace_dof_ispow2(sec->dofs_align))
			return DOF_ERR(state, "bad section alignment");
		if (sec->dofs_offset & (sec->dofs_align - 1))
			return DOF_ERR(state, "misaligned section");
		if (sec->dofs_offset > len || sec->dofs_size > len ||
		    sec->dofs_offset + sec->dofs_size > len)
			return DOF_ERR(state, "corrupt section header");
		if (sec->dofs_type == DOF_SECT_STRTAB &&
		    (sec->dofs_size == 0 ||
		     *((char *)dof + sec->dofs_offset + sec->dofs_size - 1) != '\0'))
			return DOF_ERR(state, "non-terminating string table");
	}
	return 0;
}

/* Does this image set the destructive option?  (Its DIF may then call
 * destructive subroutines.)  Only reads validated sections. */
static bool
dtrace_dof_wants_destructive(dof_hdr_t *dof)
{
	for (uint32_t i = 0; i < dof->dofh_secnum; i++) {
		dof_sec_t *sec = dtrace_dof_sechdr(dof, i);

		if (sec->dofs_type != DOF_SECT_OPTDESC || sec->dofs_entsize < sizeof(dof_optdesc_t))
			continue;
		for (uint64_t o = 0; o + sizeof(dof_optdesc_t) <= sec->dofs_size;
		     o += sec->dofs_entsize) {
			dof_optdesc_t *d = (dof_optdesc_t *)((uintptr_t)dtrace_dof_data(dof, sec) + o);

			if (d->dofo_option == DTRACEOPT_DESTRUCTIVE &&
			    d->dofo_value != (uint64_t)DTRACEOPT_UNSET)
				return true;
		}
	}
	return false;
}

int
dtrace_dof_slurp(dof_hdr_t *dof, size_t size, dtrace_state_t *state, dtrace_enabling_t **enabp)
{
	dtrace_enabling_t *enab;

	state->dts_errmsg[0] = '\0';
	if (dtrace_dof_header(dof, size, state) != 0 || dtrace_dof_sections(dof, state) != 0)
		return -1;

	/* relocations, once every section header is known to be sane */
	for (uint32_t i = 0; i < dof->dofh_secnum; i++) {
		dof_sec_t *sec = dtrace_dof_sechdr(dof, i);

		if (!(sec->dofs_flags & DOF_SECF_LOAD))
			continue;
		if ((sec->dofs_type == DOF_SECT_URELHDR || sec->dofs_type == DOF_SECT_KRELHDR) &&
		    dtrace_dof_relocate(dof, state, sec, 0, sec->dofs_type == DOF_SECT_URELHDR) != 0)
			return -1;
	}

	dtrace_dof_difpriv = state->dts_priv;
	if (state->dts_destructive_allowed || dtrace_dof_wants_destructive(dof))
		dtrace_dof_difpriv |= DTRACE_DIF_DESTRUCTIVE_OK;

	if ((enab = dtrace_enabling_create(state)) == NULL)
		return DOF_ERR(state, "out of memory creating enabling");

	for (uint32_t i = 0; i < dof->dofh_secnum; i++) {
		dof_sec_t *sec = dtrace_dof_sechdr(dof, i);
		dtrace_ecbdesc_t *ep;

		if (sec->dofs_type != DOF_SECT_ECBDESC)
			continue;
		if ((ep = dtrace_dof_ecbdesc(dof, state, sec)) == NULL)
			goto err;
		if (dtrace_enabling_add(enab, ep) != 0) {
			dtrace_ecbdesc_release(ep, state);
			dtrace_state_seterr(state, "out of memory creating enabling", NULL);
			goto err;
		}
	}
	*enabp = enab;
	return 0;

err:
	dtrace_enabling_destroy(enab);
	return -1;
}

int
dtrace_dof_options(const dof_hdr_t *cdof, dtrace_state_t *state)
{
	dof_hdr_t *dof = (dof_hdr_t *)cdof;

	for (uint32_t i = 0; i < dof->dofh_secnum; i++) {
		dof_sec_t *sec = dtrace_dof_sechdr(dof, i);
		uint32_t entsize;

		if (sec->dofs_type != DOF_SECT_OPTDESC)
			continue;
		if (sec->dofs_align != sizeof(uint64_t)) {
			dtrace_state_seterr(state, "bad alignment in option description", NULL);
			return DTRACE_EINVAL;
		}
		if ((entsize = sec->dofs_entsize) == 0) {
			dtrace_state_seterr(state, "zeroed option entry size", NULL);
			return DTRACE_EINVAL;
		}
		if (entsize < sizeof(dof_optdesc_t) || sec->dofs_size % entsize != 0) {
			dtrace_state_seterr(state, "bad option entry size", NULL);
			return DTRACE_EINVAL;
		}
		for (uint64_t offs = 0; offs < sec->dofs_size; offs += entsize) {
			dof_optdesc_t *desc =
				(dof_optdesc_t *)((uintptr_t)dtrace_dof_data(dof, sec) + offs);
			int rval;

			if (desc->dofo_strtab != DOF_SECIDX_NONE) {
				dtrace_state_seterr(state, "non-zero option string", NULL);
				return DTRACE_EINVAL;
			}
			if (desc->dofo_value == (uint64_t)DTRACEOPT_UNSET) {
				dtrace_state_seterr(state, "unset option", NULL);
				return DTRACE_EINVAL;
			}
			if ((rval = dtrace_state_option(state, desc->dofo_option,
							(dtrace_optval_t)desc->dofo_value)) != 0) {
				dtrace_state_seterr(state, "rejected option", NULL);
				return rval;
			}
		}
	}
	return 0;
}

dof_hdr_t *
dtrace_dof_create(dtrace_state_t *state, size_t *sizep)
{
	size_t secoff = DTRACE_ROUNDUP(sizeof(dof_hdr_t), sizeof(uint64_t));
	size_t optoff = secoff + DTRACE_ROUNDUP(sizeof(dof_sec_t), sizeof(uint64_t));
	size_t len = optoff + sizeof(dof_optdesc_t) * DTRACEOPT_MAX;
	dof_hdr_t *dof = dtrace_port_zalloc(len);
	dof_optdesc_t *opt;
	dof_sec_t *sec;

	if (dof == NULL)
		return NULL;
	dof->dofh_ident[DOF_ID_MAG0] = DOF_MAG_MAG0;
	dof->dofh_ident[DOF_ID_MAG1] = DOF_MAG_MAG1;
	dof->dofh_ident[DOF_ID_MAG2] = DOF_MAG_MAG2;
	dof->dofh_ident[DOF_ID_MAG3] = DOF_MAG_MAG3;
	dof->dofh_ident[DOF_ID_MODEL] = DOF_MODEL_NATIVE;
	dof->dofh_ident[DOF_ID_ENCODING] = DOF_ENCODE_NATIVE;
	dof->dofh_ident[DOF_ID_VERSION] = DOF_VERSION;
	dof->dofh_ident[DOF_ID_DIFVERS] = DIF_VERSION;
	dof->dofh_ident[DOF_ID_DIFIREG] = DIF_DIR_NREGS;
	dof->dofh_ident[DOF_ID_DIFTREG] = DIF_DTR_NREGS;
	dof->dofh_hdrsize = sizeof(dof_hdr_t);
	dof->dofh_secsize = sizeof(dof_sec_t);
	dof->dofh_secnum = 1; /* the options */
	dof->dofh_secoff = secoff;
	dof->dofh_loadsz = len;
	dof->dofh_filesz = len;

	sec = (dof_sec_t *)((uintptr_t)dof + secoff);
	sec->dofs_type = DOF_SECT_OPTDESC;
	sec->dofs_align = sizeof(uint64_t);
	sec->dofs_flags = DOF_SECF_LOAD;
	sec->dofs_entsize = sizeof(dof_optdesc_t);
	sec->dofs_offset = optoff;
	sec->dofs_size = sizeof(dof_optdesc_t) * DTRACEOPT_MAX;

	opt = (dof_optdesc_t *)((uintptr_t)dof + optoff);
	for (int i = 0; i < DTRACEOPT_MAX; i++) {
		opt[i].dofo_option = (uint32_t)i;
		opt[i].dofo_strtab = DOF_SECIDX_NONE;
		opt[i].dofo_value = (uint64_t)state->dts_options[i];
	}
	*sizep = len;
	return dof;
}
