/*
 * core/ecb/action.c: turning action descriptions into an ECB's action list,
 * and laying out the record every firing of the ECB writes.
 *
 * Each action gets a dtrace_recdesc_t: its kind, its size in the record, its
 * alignment (the largest power of two up to 8 dividing the size), and, for
 * printf-like actions, the index of its format string in the state's format
 * table.  Sizes follow DTrace exactly, since the consumer decodes records
 * with them:
 *   trace()/print()/printf args (DIFEXPR, PRINTF, ...): the DIFO's return
 *       size; a string is strsize bytes; an aggregation argument is 0
 *   stack(n):           n (or stackframes) 8-byte pcs
 *   ustack/jstack(n,s): (n + 1) 8-byte words (pid first) + s string bytes,
 *                       rounded up to 8
 *   sym/mod:            the 8-byte address
 *   usym/umod/uaddr:    pid and address, 8 bytes each
 *   exit(n):            the 4-byte status
 *   speculate/commit/discard/stop/raise/chill/breakpoint/panic: nothing
 * An aggregating action becomes a dtrace_aggregation_t whose key is the run
 * of actions just before it (dofa_ntuple of them).
 *
 * dtrace_ecb_resize() then assigns offsets: the record starts with the
 * 12-byte dtrace_rechdr_t; ordinary actions follow at their alignment; each
 * aggregation key is laid out past the record (so it is reserved but never
 * published) starting at offset 4 of an 8-byte block, where the aggregation
 * id goes, exactly as DTrace does.
 *
 * Called with DTRACE_LOCK_FRAMEWORK held while an ENABLE builds ECBs; never
 * in probe context.
 */
#include "../dtrace_impl.h"

/* --- Format strings ----------------------------------------------------- */

uint16_t
dtrace_format_add(dtrace_state_t *state, const char *str)
{
	char *fmt, **formats;
	int ndx;

	if ((fmt = dtrace_strdup(str)) == NULL)
		return 0;

	for (ndx = 0; ndx < state->dts_nformats; ndx++) {
		if (state->dts_formats[ndx] == NULL) {
			state->dts_formats[ndx] = fmt;
			return (uint16_t)(ndx + 1);
		}
	}
	if (state->dts_nformats == UINT16_MAX)
		goto fail;
	formats = dtrace_port_zalloc((size_t)(ndx + 1) * sizeof(char *));
	if (formats == NULL)
		goto fail;
	if (state->dts_formats != NULL) {
		memcpy(formats, state->dts_formats, (size_t)ndx * sizeof(char *));
		dtrace_port_free(state->dts_formats, (size_t)ndx * sizeof(char *));
	}
	formats[ndx] = fmt;
	state->dts_formats = formats;
	state->dts_nformats = ndx + 1;
	return (uint16_t)(ndx + 1);

fail:
	dtrace_strfree(fmt);
	return 0;
}

void
dtrace_format_remove(dtrace_state_t *state, uint16_t format)
{
	if (format == 0 || format > state->dts_nformats)
		return;
	dtrace_strfree(state->dts_formats[format - 1]);
	state->dts_formats[format - 1] = NULL;
}

void
dtrace_format_destroy(dtrace_state_t *state)
{
	for (int i = 0; i < state->dts_nformats; i++)
		dtrace_strfree(state->dts_formats[i]);
	if (state->dts_formats != NULL)
		dtrace_port_free(state->dts_formats, (size_t)state->dts_nformats * sizeof(char *));
	state->dts_formats = NULL;
	state->dts_nformats = 0;
}

/* --- Aggregations ------------------------------------------------------- */

/*
 * Index of the bucket that llquantize() puts INT64_MAX in, i.e. the number of
 * buckets before the overflow bucket: bucket 0 holds values below
 * factor^low; each magnitude [factor^k, factor^(k+1)) for k = low..high adds
 * min(factor^(k+1), nsteps) buckets less those that overlap the magnitude
 * below.  A magnitude whose upper end does not fit in 64 bits ends the
 * count where INT64_MAX falls inside it.  -1 if factor^low itself overflows.
 */
static int64_t
dtrace_llquantize_lastbucket(uint16_t factor, uint16_t low, uint16_t high, uint16_t nsteps)
{
	int64_t this = 1, last, base = 1;

	for (uint16_t order = 0; order < low; order++) {
		if (this > INT64_MAX / factor)
			return -1;
		this *= factor;
	}
	last = this;
	if (this > INT64_MAX / factor)
		return -1;
	this *= factor;
	for (uint32_t order = low; order <= high; order++) {
		int64_t nbuckets = this > nsteps ? nsteps : this;

		if (this > INT64_MAX / factor) /* next magnitude overflows */
			return base + (this - 1 - last) / (this / nbuckets);
		base += nbuckets - nbuckets / factor;
		last = this;
		this *= factor;
	}
	return base;
}

static dtrace_action_t *
dtrace_ecb_aggregation_create(dtrace_ecb_t *ecb, const dtrace_actdesc_t *desc)
{
	dtrace_state_t *state = ecb->dte_state;
	dtrace_aggregation_t *agg, **aggs;
	dtrace_action_t *act;
	uint32_t ntuple = desc->dtad_ntuple;
	uint64_t size = sizeof(uint64_t);
	dtrace_aggid_t aggid;

	if ((agg = dtrace_port_zalloc(sizeof(*agg))) == NULL)
		return NULL;
	agg->dtag_ecb = ecb;

	switch (desc->dtad_kind) {
	case DTRACEAGG_MIN:
		agg->dtag_initial = (uint64_t)INT64_MAX;
		break;
	case DTRACEAGG_MAX:
		agg->dtag_initial = (uint64_t)INT64_MIN;
		break;
	case DTRACEAGG_COUNT:
	case DTRACEAGG_SUM:
		break;
	case DTRACEAGG_AVG:
		size = 2 * sizeof(uint64_t); /* count, total */
		break;
	case DTRACEAGG_STDDEV:
		size = 4 * sizeof(uint64_t); /* count, total, 128-bit sum of squares */
		break;
	case DTRACEAGG_QUANTIZE:
		size = DTRACE_QUANTIZE_NBUCKETS * sizeof(uint64_t);
		break;
	case DTRACEAGG_LQUANTIZE: {
		uint16_t step = DTRACE_LQUANTIZE_STEP(desc->dtad_arg);
		uint16_t levels = DTRACE_LQUANTIZE_LEVELS(desc->dtad_arg);

		if (step == 0 || levels == 0)
			goto err;
		agg->dtag_initial = desc->dtad_arg;
		/* the argument word, underflow, levels, overflow */
		size = ((uint64_t)levels + 3) * sizeof(uint64_t);
		break;
	}
	case DTRACEAGG_LLQUANTIZE: {
		uint16_t factor = DTRACE_LLQUANTIZE_FACTOR(desc->dtad_arg);
		uint16_t low = DTRACE_LLQUANTIZE_LOW(desc->dtad_arg);
		uint16_t high = DTRACE_LLQUANTIZE_HIGH(desc->dtad_arg);
		uint16_t nsteps = DTRACE_LLQUANTIZE_NSTEP(desc->dtad_arg);
		int64_t v, nb;

		if (factor < 2 || low >= high || nsteps < factor)
			goto err;
		/* nsteps must divide a power of factor and be a multiple of it */
		for (v = factor; v < nsteps; v *= factor)
			continue;
		if ((v % nsteps) != 0 || (nsteps % factor) != 0)
			goto err;
		if ((nb = dtrace_llquantize_lastbucket(factor, low, high, nsteps)) < 0)
			goto err;
		agg->dtag_initial = desc->dtad_arg;
		/* the argument word, then buckets 0..nb */
		size = ((uint64_t)nb + 2) * sizeof(uint64_t);
		break;
	}
	default:
		goto err;
	}
	if (size > UINT32_MAX / 2)
		goto err;
	agg->dtag_action.dta_rec.dtrd_size = (uint32_t)size;

	/* the key is the ntuple actions just before this one (at least one) */
	if (ntuple == 0)
		goto err;
	for (act = ecb->dte_action_last; act != NULL; act = act->dta_prev) {
		if (DTRACEACT_ISAGG(act->dta_kind) || act->dta_intuple)
			break;
		if (--ntuple == 0) {
			agg->dtag_first = act;
			break;
		}
	}
	if (agg->dtag_first == NULL)
		goto err;

	/* a zero-sized last key action is the aggregating function's extra
	 * argument (quantize's increment, lquantize's ...) */
	act = ecb->dte_action_last;
	if (act->dta_kind == DTRACEACT_DIFEXPR && act->dta_difo != NULL &&
	    act->dta_difo->dtdo_rtype.dtdt_size == 0)
		agg->dtag_hasarg = 1;

	/* lowest free aggregation id */
	for (aggid = 1; aggid <= state->dts_naggregations; aggid++) {
		if (state->dts_aggregations[aggid - 1] == NULL)
			break;
	}
	if (aggid > state->dts_naggregations) {
		dtrace_aggid_t n = state->dts_naggregations == 0 ? 1 : state->dts_naggregations * 2;

		if ((aggs = dtrace_port_zalloc((size_t)n * sizeof(*aggs))) == NULL)
			goto err;
		if (state->dts_aggregations != NULL) {
			memcpy(aggs, state->dts_aggregations,
			       (size_t)state->dts_naggregations * sizeof(*aggs));
			dtrace_port_free(state->dts_aggregations,
					 (size_t)state->dts_naggregations * sizeof(*aggs));
		}
		state->dts_aggregations = aggs;
		state->dts_naggregations = n;
	}
	agg->dtag_id = aggid;
	state->dts_aggregations[aggid - 1] = agg;

	/* the key starts with the aggregation id: at least its alignment */
	if (agg->dtag_first->dta_rec.dtrd_alignment < sizeof(dtrace_aggid_t))
		agg->dtag_first->dta_rec.dtrd_alignment = sizeof(dtrace_aggid_t);
	for (act = agg->dtag_first; act != NULL; act = act->dta_next)
		act->dta_intuple = 1;

	return &agg->dtag_action;

err:
	dtrace_port_free(agg, sizeof(*agg));
	return NULL;
}

static void
dtrace_ecb_aggregation_destroy(dtrace_ecb_t *ecb, dtrace_action_t *act)
{
	dtrace_aggregation_t *agg = (dtrace_aggregation_t *)act;
	dtrace_state_t *state = ecb->dte_state;

	if (agg->dtag_id != 0 && agg->dtag_id <= state->dts_naggregations &&
	    state->dts_aggregations[agg->dtag_id - 1] == agg)
		state->dts_aggregations[agg->dtag_id - 1] = NULL;
	dtrace_port_free(agg, sizeof(*agg));
}

dtrace_aggregation_t *
dtrace_aggid2agg(dtrace_state_t *state, dtrace_aggid_t id)
{
	if (id == 0 || id > state->dts_naggregations)
		return NULL;
	return state->dts_aggregations[id - 1];
}

/* --- Actions ------------------------------------------------------------ */

static bool
dtrace_ecb_has_commit(const dtrace_ecb_t *ecb)
{
	for (const dtrace_action_t *act = ecb->dte_action; act != NULL; act = act->dta_next) {
		if (act->dta_kind == DTRACEACT_COMMIT)
			return true;
	}
	return false;
}

int
dtrace_ecb_action_add(dtrace_ecb_t *ecb, const dtrace_actdesc_t *desc)
{
	dtrace_state_t *state = ecb->dte_state;
	const dtrace_optval_t *opt = state->dts_options;
	dtrace_difo_t *dp = desc->dtad_difo;
	dtrace_action_t *action;
	uint64_t arg = desc->dtad_arg;
	uint64_t size = 0, nframes, strsize;
	uint32_t align = 1;
	uint16_t format = 0;

	if (DTRACEACT_ISAGG(desc->dtad_kind)) {
		/* no aggregation in a clause that speculates or commits */
		for (dtrace_action_t *act = ecb->dte_action; act != NULL; act = act->dta_next) {
			if (act->dta_kind == DTRACEACT_COMMIT ||
			    act->dta_kind == DTRACEACT_SPECULATE)
				return DTRACE_EINVAL;
		}
		if ((action = dtrace_ecb_aggregation_create(ecb, desc)) == NULL)
			return DTRACE_EINVAL;
	} else {
		if (DTRACEACT_ISDESTRUCTIVE(desc->dtad_kind) ||
		    (desc->dtad_kind == DTRACEACT_DIFEXPR && dp != NULL && dp->dtdo_destructive))
			state->dts_destructive = 1;

		switch (desc->dtad_kind) {
		case DTRACEACT_PRINTF:
		case DTRACEACT_PRINTA:
		case DTRACEACT_SYSTEM:
		case DTRACEACT_FREOPEN:
		case DTRACEACT_DIFEXPR:
			/* the argument, if any, is the format (or print()'s type) */
			if (arg != 0) {
				if ((format = dtrace_format_add(state, (const char *)(uintptr_t)arg)) ==
				    0)
					return DTRACE_ENOMEM;
			} else if (desc->dtad_kind != DTRACEACT_PRINTA &&
				   desc->dtad_kind != DTRACEACT_DIFEXPR) {
				return DTRACE_EINVAL;
			}
			/* FALLTHROUGH */
		case DTRACEACT_LIBACT:
		case DTRACEACT_TRACEMEM:
		case DTRACEACT_TRACEMEM_DYNSIZE:
			if (dp == NULL)
				goto einval;
			if ((size = dp->dtdo_rtype.dtdt_size) != 0)
				break;
			if (dp->dtdo_rtype.dtdt_kind == DIF_TYPE_STRING) {
				if (!(dp->dtdo_rtype.dtdt_flags & DIF_TF_BYREF))
					goto einval;
				size = (uint64_t)opt[DTRACEOPT_STRSIZE];
			}
			break;

		case DTRACEACT_STACK:
			if ((nframes = arg) == 0)
				arg = nframes = (uint64_t)opt[DTRACEOPT_STACKFRAMES];
			if (nframes > UINT32_MAX / sizeof(uint64_t))
				return DTRACE_EINVAL;
			size = nframes * sizeof(uint64_t);
			break;

		case DTRACEACT_JSTACK:
			if ((strsize = DTRACE_USTACK_STRSIZE(arg)) == 0)
				strsize = (uint64_t)opt[DTRACEOPT_JSTACKSTRSIZE];
			if ((nframes = DTRACE_USTACK_NFRAMES(arg)) == 0)
				nframes = (uint64_t)opt[DTRACEOPT_JSTACKFRAMES];
			arg = DTRACE_USTACK_ARG(nframes, strsize);
			goto ustack;

		case DTRACEACT_USTACK:
			if (DTRACE_USTACK_NFRAMES(arg) == 0)
				arg = DTRACE_USTACK_ARG((uint64_t)opt[DTRACEOPT_USTACKFRAMES],
							DTRACE_USTACK_STRSIZE(arg));
		ustack:
			nframes = DTRACE_USTACK_NFRAMES(arg);
			/* one extra slot for the pid, then the string space */
			size = (nframes + 1) * sizeof(uint64_t) + DTRACE_USTACK_STRSIZE(arg);
			size = DTRACE_ROUNDUP(size, sizeof(uint64_t));
			break;

		case DTRACEACT_SYM:
		case DTRACEACT_MOD:
			if (dp == NULL || dp->dtdo_rtype.dtdt_size != sizeof(uint64_t) ||
			    (dp->dtdo_rtype.dtdt_flags & DIF_TF_BYREF))
				goto einval;
			size = sizeof(uint64_t);
			break;

		case DTRACEACT_USYM:
		case DTRACEACT_UMOD:
		case DTRACEACT_UADDR:
			if (dp == NULL || dp->dtdo_rtype.dtdt_size != sizeof(uint64_t) ||
			    (dp->dtdo_rtype.dtdt_flags & DIF_TF_BYREF))
				goto einval;
			size = 2 * sizeof(uint64_t); /* pid, address */
			break;

		case DTRACEACT_STOP:
		case DTRACEACT_BREAKPOINT:
		case DTRACEACT_PANIC:
			break;

		case DTRACEACT_CHILL:
		case DTRACEACT_DISCARD:
		case DTRACEACT_RAISE:
			if (dp == NULL)
				goto einval;
			break;

		case DTRACEACT_EXIT:
			if (dp == NULL || dp->dtdo_rtype.dtdt_size != sizeof(int32_t) ||
			    (dp->dtdo_rtype.dtdt_flags & DIF_TF_BYREF))
				goto einval;
			size = sizeof(int32_t);
			break;

		case DTRACEACT_SPECULATE:
			/* speculate() must come before any action that records */
			if (dp == NULL)
				goto einval;
			for (dtrace_action_t *act = ecb->dte_action; act != NULL;
			     act = act->dta_next) {
				if (act->dta_rec.dtrd_size != 0)
					goto einval;
			}
			state->dts_speculates = 1;
			break;

		case DTRACEACT_COMMIT:
			if (dtrace_ecb_has_commit(ecb) || dp == NULL)
				goto einval;
			break;

		default:
			goto einval;
		}

		if (size > UINT32_MAX / 2)
			goto einval;
		/* nothing may record after a commit(), nor speculate */
		if ((size != 0 || desc->dtad_kind == DTRACEACT_SPECULATE) &&
		    dtrace_ecb_has_commit(ecb))
			goto einval;

		if ((action = dtrace_port_zalloc(sizeof(*action))) == NULL) {
			if (format != 0)
				dtrace_format_remove(state, format);
			return DTRACE_ENOMEM;
		}
		action->dta_rec.dtrd_size = (uint32_t)size;
	}

	/* natural alignment of the record: largest power of two <= 8 dividing it */
	size = action->dta_rec.dtrd_size;
	for (uint32_t mask = sizeof(uint64_t) - 1; size != 0 && mask > 0; mask >>= 1) {
		if (!(size & mask)) {
			align = mask + 1;
			break;
		}
	}

	action->dta_refcnt = 1;
	action->dta_kind = desc->dtad_kind;
	if ((action->dta_difo = dp) != NULL)
		dtrace_difo_hold(dp);
	action->dta_rec.dtrd_action = desc->dtad_kind;
	action->dta_rec.dtrd_arg = arg;
	action->dta_rec.dtrd_uarg = desc->dtad_uarg;
	if (action->dta_rec.dtrd_alignment < align) /* the key may have raised it */
		action->dta_rec.dtrd_alignment = (uint16_t)align;
	action->dta_rec.dtrd_format = format;

	if (ecb->dte_action_last != NULL) {
		action->dta_prev = ecb->dte_action_last;
		ecb->dte_action_last->dta_next = action;
	} else {
		ecb->dte_action = action;
	}
	ecb->dte_action_last = action;
	return 0;

einval:
	if (format != 0)
		dtrace_format_remove(state, format);
	return DTRACE_EINVAL;
}

void
dtrace_ecb_action_remove(dtrace_ecb_t *ecb)
{
	dtrace_action_t *act = ecb->dte_action, *next;
	dtrace_state_t *state = ecb->dte_state;

	if (act != NULL && act->dta_refcnt > 1) {
		/* shared with the ECB it was copied from: drop our reference */
		act->dta_refcnt--;
	} else {
		for (; act != NULL; act = next) {
			next = act->dta_next;
			if (act->dta_rec.dtrd_format != 0)
				dtrace_format_remove(state, act->dta_rec.dtrd_format);
			if (act->dta_difo != NULL)
				dtrace_difo_release(act->dta_difo, &state->dts_vstate);
			if (DTRACEACT_ISAGG(act->dta_kind))
				dtrace_ecb_aggregation_destroy(ecb, act);
			else
				dtrace_port_free(act, sizeof(*act));
		}
	}
	ecb->dte_action = NULL;
	ecb->dte_action_last = NULL;
	ecb->dte_size = 0;
}

int
dtrace_ecb_resize(dtrace_ecb_t *ecb)
{
	uint64_t curneeded = UINT64_MAX, aggbase = UINT64_MAX;
	uint64_t size = sizeof(dtrace_rechdr_t), needed = ecb->dte_needed;
	uint32_t alignment = sizeof(dtrace_epid_t);
	dtrace_action_t *act;

	for (act = ecb->dte_action; act != NULL; act = act->dta_next) {
		dtrace_recdesc_t *rec = &act->dta_rec;

		alignment = DTRACE_MAX(alignment, rec->dtrd_alignment);

		if (DTRACEACT_ISAGG(act->dta_kind)) {
			dtrace_aggregation_t *agg = (dtrace_aggregation_t *)act;

			if (curneeded == UINT64_MAX)
				return DTRACE_EINVAL; /* an aggregation needs its key */
			agg->dtag_base = (uint32_t)aggbase;
			curneeded = DTRACE_ROUNDUP(curneeded, rec->dtrd_alignment);
			rec->dtrd_offset = (uint32_t)curneeded;
			curneeded += rec->dtrd_size;
			needed = DTRACE_MAX(needed, curneeded);
			aggbase = curneeded = UINT64_MAX;
		} else if (act->dta_intuple) {
			if (curneeded == UINT64_MAX) {
				/* the key's first record: offset 4 of an 8-byte block,
				 * the aggregation id in front of it */
				curneeded =
					DTRACE_PHASEUP(size, sizeof(uint64_t), sizeof(dtrace_aggid_t));
				aggbase = curneeded - sizeof(dtrace_aggid_t);
			}
			curneeded = DTRACE_ROUNDUP(curneeded, rec->dtrd_alignment);
			rec->dtrd_offset = (uint32_t)curneeded;
			curneeded += rec->dtrd_size;
		} else {
			size = DTRACE_ROUNDUP(size, rec->dtrd_alignment);
			rec->dtrd_offset = (uint32_t)size;
			size += rec->dtrd_size;
			needed = DTRACE_MAX(needed, size);
		}
		if (size > UINT32_MAX / 2 || (curneeded != UINT64_MAX && curneeded > UINT32_MAX / 2))
			return DTRACE_E2BIG;
	}
	if (curneeded != UINT64_MAX)
		return DTRACE_EINVAL; /* a key without its aggregation */

	/* actions that record nothing: no record at all (a lone speculate()
	 * keeps its header, which the speculation buffer needs) */
	act = ecb->dte_action;
	if (act != NULL && !(act->dta_kind == DTRACEACT_SPECULATE && act->dta_next == NULL) &&
	    size == sizeof(dtrace_rechdr_t))
		size = 0;

	ecb->dte_size = (uint32_t)DTRACE_ROUNDUP(size, sizeof(dtrace_epid_t));
	ecb->dte_needed = (uint32_t)DTRACE_ROUNDUP(needed, sizeof(dtrace_epid_t));
	ecb->dte_alignment = alignment;
	ecb->dte_state->dts_needed = DTRACE_MAX(ecb->dte_state->dts_needed, ecb->dte_needed);
	return 0;
}
