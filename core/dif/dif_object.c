/*
 * core/dif/dif_object.c: the life of a DIFO inside a consumer state.
 *
 * dtrace_difo_init() gives a validated DIFO's variables their storage in the
 * state's dtrace_vstate_t: one dtrace_statvar_t per global or clause-local
 * (shared by every DIFO that names it, reference-counted), the type of each
 * thread-local, and the dynamic-variable chunk size its stores need.
 * dtrace_difo_release() undoes that when the last ECB lets go, and
 * dtrace_vstate_fini() frees whatever the state still holds.
 *
 * Not probe context: FRAMEWORK held.  Probe context sees the arrays only
 * after the enabling that created them has been published, and the arrays
 * only grow while the state is inactive (DOF is refused after GO).
 */
#include "dif_internal.h"

#define ROUND8(x) (((x) + 7) & ~(uint64_t)7)

/* Grow an array of `*n` elements of `esize` bytes to hold index `ndx`. */
static bool
grow(void **arr, int *n, uint32_t ndx, size_t esize)
{
	int old = *n, nn = old == 0 ? 1 : old;
	void *p;

	if (ndx < (uint32_t)old)
		return true;
	while ((uint32_t)nn <= ndx)
		nn *= 2;
	if ((p = dtrace_port_zalloc((size_t)nn * esize)) == NULL)
		return false;
	if (old != 0) {
		memcpy(p, *arr, (size_t)old * esize);
		dtrace_port_free(*arr, (size_t)old * esize);
	}
	*arr = p;
	*n = nn;
	return true;
}

/* The statvar slot of a global or clause-local, or NULL for other scopes. */
static dtrace_statvar_t **
statvar_slot(dtrace_vstate_t *vs, const dtrace_difv_t *v)
{
	uint32_t ndx = v->dtdv_id - DIF_VAR_OTHER_UBASE;

	if (v->dtdv_scope == DIFV_SCOPE_GLOBAL && ndx < (uint32_t)vs->dtvs_nglobals)
		return &vs->dtvs_globals[ndx];
	if (v->dtdv_scope == DIFV_SCOPE_LOCAL && ndx < (uint32_t)vs->dtvs_nlocals)
		return &vs->dtvs_locals[ndx];
	return NULL;
}

static void
statvar_put(dtrace_statvar_t **slot)
{
	dtrace_statvar_t *sv = *slot;

	if (sv == NULL || --sv->dtsv_refcnt > 0)
		return;
	if (sv->dtsv_size != 0)
		dtrace_port_free_probe((void *)(uintptr_t)sv->dtsv_data, sv->dtsv_size);
	dtrace_port_free(sv, sizeof(*sv));
	*slot = NULL;
}

/* Drop the statvar references of vartab entries [0, upto). */
static void
difo_vars_put(dtrace_difo_t *dp, dtrace_vstate_t *vs, uint32_t upto)
{
	for (uint32_t i = 0; i < upto; i++) {
		const dtrace_difv_t *v = &dp->dtdo_vartab[i];
		dtrace_statvar_t **slot;

		if (v->dtdv_id < DIF_VAR_OTHER_UBASE)
			continue;
		if ((slot = statvar_slot(vs, v)) != NULL)
			statvar_put(slot);
	}
}

static const dtrace_difv_t *
vartab_find(const dtrace_difo_t *dp, uint32_t id, uint8_t scope)
{
	for (uint32_t i = 0; i < dp->dtdo_varlen; i++) {
		if (dp->dtdo_vartab[i].dtdv_id == id && dp->dtdo_vartab[i].dtdv_scope == scope)
			return &dp->dtdo_vartab[i];
	}
	return NULL;
}

static bool
writes_rd(uint32_t op)
{
	switch (op) {
	case DIF_OP_STB:
	case DIF_OP_STH:
	case DIF_OP_STW:
	case DIF_OP_STX:
	case DIF_OP_COPYS:
	case DIF_OP_CMP:
	case DIF_OP_SCMP:
	case DIF_OP_TST:
	case DIF_OP_RET:
	case DIF_OP_NOP:
	case DIF_OP_STGS:
	case DIF_OP_STTS:
	case DIF_OP_STLS:
	case DIF_OP_STGAA:
	case DIF_OP_STTAA:
	case DIF_OP_PUSHTR:
	case DIF_OP_PUSHTV:
	case DIF_OP_POPTS:
	case DIF_OP_FLUSHTS:
		return false;
	default:
		return !(op >= DIF_OP_BA && op <= DIF_OP_BLEU);
	}
}

/*
 * The dynamic-variable chunk the DIFO's stores need: key tuple (by-reference
 * keys at the size their PUSHTR gives, a constant loaded by SETX, or the
 * strsize for strings), then the data.  Like DTrace's, this is an estimate
 * that compiler-generated DIF always meets; dtrace_dynvar() refuses (and
 * counts as a drop) a variable that would not fit.
 */
static size_t
difo_chunksize(const dtrace_difo_t *dp, const dtrace_vstate_t *vs)
{
	uint64_t regval[DIF_DIR_NREGS] = {0}, ksz[DIF_DTR_NREGS];
	bool known[DIF_DIR_NREGS] = {false};
	size_t chunk = 0, strsize = DTRACE_STRSIZE_DEFAULT;
	uint32_t ttop = 0;

	if (vs->dtvs_state != NULL)
		strsize = dtrace_dif_strsize(vs->dtvs_state);

	for (uint32_t pc = 0; pc < dp->dtdo_len; pc++) {
		dif_instr_t in = dp->dtdo_buf[pc];
		uint32_t op = DIF_INSTR_OP(in), rd = DIF_INSTR_RD(in), r2 = DIF_INSTR_R2(in);
		uint32_t nkeys = 0, i;
		uint8_t scope = DIFV_SCOPE_GLOBAL;
		const dtrace_difv_t *v;
		uint64_t size, keys = 0;

		switch (op) {
		case DIF_OP_SETX:
			if (rd < DIF_DIR_NREGS) {
				regval[rd] = dp->dtdo_inttab[DIF_INSTR_INTEGER(in)];
				known[rd] = true;
			}
			continue;
		case DIF_OP_PUSHTR:
			if (ttop == DIF_DTR_NREGS)
				continue;
			/* a size beyond any object D can have is left to the runtime
			 * check too (and must not overflow the sum below) */
			if (r2 < DIF_DIR_NREGS && r2 != 0 && known[r2] && regval[r2] != 0 &&
			    regval[r2] <= DTRACE_DIF_BYREF_MAX)
				ksz[ttop++] = regval[r2];
			else if (DIF_INSTR_R1(in) == DIF_TYPE_STRING)
				ksz[ttop++] = strsize;
			else
				ksz[ttop++] = 0; /* unknown size: the runtime check decides */
			continue;
		case DIF_OP_PUSHTV:
			if (ttop < DIF_DTR_NREGS)
				ksz[ttop++] = 0;
			continue;
		case DIF_OP_POPTS:
			if (ttop != 0)
				ttop--;
			continue;
		case DIF_OP_FLUSHTS:
			ttop = 0;
			continue;
		case DIF_OP_STTS:
			nkeys = 2;
			scope = DIFV_SCOPE_THREAD;
			break;
		case DIF_OP_STGAA:
			nkeys = ttop + 1;
			for (i = 0; i < ttop; i++)
				keys += ROUND8(ksz[i]);
			break;
		case DIF_OP_STTAA:
			nkeys = ttop + 2;
			scope = DIFV_SCOPE_THREAD;
			for (i = 0; i < ttop; i++)
				keys += ROUND8(ksz[i]);
			break;
		default:
			if (writes_rd(op) && rd < DIF_DIR_NREGS)
				known[rd] = false;
			continue;
		}
		if ((v = vartab_find(dp, DIF_INSTR_VAR(in), scope)) == NULL)
			continue;
		size = (v->dtdv_type.dtdt_flags & DIF_TF_BYREF) ? dif_byref_size(&v->dtdv_type)
								: v->dtdv_type.dtdt_size;
		if (size < sizeof(uint64_t))
			size = sizeof(uint64_t);
		size = ROUND8(sizeof(dtrace_dynvar_t) + sizeof(dtrace_key_t) * (nkeys - 1) + keys +
			      size);
		if (size > chunk)
			chunk = size;
	}
	return chunk;
}

int
dtrace_difo_init(dtrace_difo_t *dp, dtrace_vstate_t *vs)
{
	uint32_t ncpus = dtrace_port_ncpus(), i;
	size_t chunk;

	for (i = 0; i < dp->dtdo_varlen; i++) {
		const dtrace_difv_t *v = &dp->dtdo_vartab[i];
		uint32_t ndx = v->dtdv_id - DIF_VAR_OTHER_UBASE;
		dtrace_statvar_t **slot, *sv;
		size_t dsize = 0;

		if (v->dtdv_id < DIF_VAR_OTHER_UBASE)
			continue;
		switch (v->dtdv_scope) {
		case DIFV_SCOPE_THREAD:
			if (!grow((void **)&vs->dtvs_tlocals, &vs->dtvs_ntlocals, ndx,
				  sizeof(dtrace_difv_t)))
				goto nomem;
			vs->dtvs_tlocals[ndx] = *v;
			continue;
		case DIFV_SCOPE_LOCAL:
			if (!grow((void **)&vs->dtvs_locals, &vs->dtvs_nlocals, ndx,
				  sizeof(dtrace_statvar_t *)))
				goto nomem;
			slot = &vs->dtvs_locals[ndx];
			dsize = ncpus * ((v->dtdv_type.dtdt_flags & DIF_TF_BYREF)
						 ? dif_byref_size(&v->dtdv_type) + sizeof(uint64_t)
						 : sizeof(uint64_t));
			break;
		default:
			if (!grow((void **)&vs->dtvs_globals, &vs->dtvs_nglobals, ndx,
				  sizeof(dtrace_statvar_t *)))
				goto nomem;
			slot = &vs->dtvs_globals[ndx];
			/* a scalar's value has storage of its own too: probe
			 * context writes it, and the statvar (which says where
			 * the storage is) must stay read-only to probe context */
			dsize = (v->dtdv_type.dtdt_flags & DIF_TF_BYREF)
					? dif_byref_size(&v->dtdv_type) + sizeof(uint64_t)
					: sizeof(uint64_t);
			break;
		}
		if ((sv = *slot) == NULL) {
			if ((sv = dtrace_port_zalloc(sizeof(*sv))) == NULL)
				goto nomem;
			sv->dtsv_var = *v;
			if ((sv->dtsv_size = dsize) != 0) {
				void *data = dtrace_port_zalloc_probe(dsize);

				if (data == NULL) {
					dtrace_port_free(sv, sizeof(*sv));
					goto nomem;
				}
				sv->dtsv_data = (uintptr_t)data;
			}
			*slot = sv;
		}
		sv->dtsv_refcnt++;
	}
	chunk = difo_chunksize(dp, vs);
	if (chunk > vs->dtvs_dynvars.dtds_chunksize)
		vs->dtvs_dynvars.dtds_chunksize = chunk;
	dp->dtdo_refcnt = 1;
	dp->dtdo_destructive = dtrace_difo_destructive(dp);
	return 0;
nomem:
	difo_vars_put(dp, vs, i);
	return DTRACE_ENOMEM;
}

void
dtrace_difo_hold(dtrace_difo_t *dp)
{
	dp->dtdo_refcnt++;
}

void
dtrace_difo_release(dtrace_difo_t *dp, dtrace_vstate_t *vs)
{
	if (dp->dtdo_refcnt == 0 || --dp->dtdo_refcnt != 0)
		return;
	difo_vars_put(dp, vs, dp->dtdo_varlen);
	if (dp->dtdo_buf != NULL)
		dtrace_port_free(dp->dtdo_buf, dp->dtdo_len * sizeof(dif_instr_t));
	if (dp->dtdo_inttab != NULL)
		dtrace_port_free(dp->dtdo_inttab, dp->dtdo_intlen * sizeof(uint64_t));
	if (dp->dtdo_strtab != NULL)
		dtrace_port_free(dp->dtdo_strtab, dp->dtdo_strlen);
	if (dp->dtdo_vartab != NULL)
		dtrace_port_free(dp->dtdo_vartab, dp->dtdo_varlen * sizeof(dtrace_difv_t));
	dtrace_port_free(dp, sizeof(*dp));
}

void
dtrace_vstate_fini(dtrace_vstate_t *vs)
{
	for (int pass = 0; pass < 2; pass++) {
		dtrace_statvar_t **arr = pass == 0 ? vs->dtvs_globals : vs->dtvs_locals;
		int n = pass == 0 ? vs->dtvs_nglobals : vs->dtvs_nlocals;

		for (int i = 0; i < n; i++) {
			dtrace_statvar_t *sv = arr[i];

			if (sv == NULL)
				continue;
			if (sv->dtsv_size != 0)
				dtrace_port_free_probe((void *)(uintptr_t)sv->dtsv_data,
						       sv->dtsv_size);
			dtrace_port_free(sv, sizeof(*sv));
		}
		if (arr != NULL)
			dtrace_port_free(arr, (size_t)n * sizeof(*arr));
	}
	if (vs->dtvs_tlocals != NULL)
		dtrace_port_free(vs->dtvs_tlocals, (size_t)vs->dtvs_ntlocals * sizeof(dtrace_difv_t));
	vs->dtvs_globals = vs->dtvs_locals = NULL;
	vs->dtvs_tlocals = NULL;
	vs->dtvs_nglobals = vs->dtvs_nlocals = vs->dtvs_ntlocals = 0;
	dtrace_dstate_fini(&vs->dtvs_dynvars);
	vs->dtvs_dynvars.dtds_chunksize = 0;
}
