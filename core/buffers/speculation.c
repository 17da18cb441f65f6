/*
 * core/buffers/speculation.c: speculative tracing, DTrace's state machine
 * (drawn in buffer_impl.h), and the buffers' part of STATUS.
 *
 * speculation(), speculate(), commit() and discard() run in probe context on
 * any CPU, concurrently, for the same speculation: its state word is the only
 * thing CPUs share, and it changes only by compare-and-swap.  Each CPU
 * touches only its own part of the speculation's per-CPU buffers.  A commit
 * or discard copies or empties its own CPU's part at once; when other CPUs
 * also hold records (ACTIVEMANY, or ACTIVEONE seen from a CPU that never
 * speculated), the speculation enters COMMITTINGMANY or DISCARDING and
 * dtrace_speculation_clean() -- fw's cleaner timer, outside probe context --
 * finishes the job with a cross-call on each CPU and returns it to INACTIVE.
 * No CPU can use the speculation meanwhile: speculate() refuses it and
 * speculation() cannot hand it out, so its buffers are quiet.
 *
 * Bounded loops: each CAS loop retries only when another CPU moved the state,
 * which can happen only a few times before the state needs the cleaner (or,
 * the words being in memory traced processes can write, when one of them
 * keeps rewriting it: DTRACE_SPEC_TRIES caps that); commit's walks are
 * bounded by the speculation buffer's size.  Probe context takes each CPU's
 * buffer from the ledger's arrays and checks its header before copying
 * (dtrace_buffer_reserve_checked and dtrace_bufgeom_check), so a rewritten
 * header costs a drop, never a write outside the buffers.
 */
#include "../dtrace_impl.h"

dtrace_specid_t
dtrace_speculation(dtrace_state_t *state)
{
	bool busy = false;

	for (int i = 0; i < state->dts_nspeculations; i++) {
		dtrace_speculation_t *spec = &state->dts_speculations[i];
		uint32_t current = dtrace_load_acquire32(&spec->dtsp_state);

		if (current != DTRACESPEC_INACTIVE) {
			/* a speculation being committed or discarded will free up */
			if (current == DTRACESPEC_COMMITTINGMANY ||
			    current == DTRACESPEC_COMMITTING || current == DTRACESPEC_DISCARDING)
				busy = true;
			continue;
		}
		if (dtrace_cas32(&spec->dtsp_state, current, DTRACESPEC_ACTIVE) == current)
			return (dtrace_specid_t)(i + 1);
		/* another CPU took it first: try the next one */
	}
	if (busy)
		DTRACE_STATE_COUNT(state, dsr_speculations_busy);
	else
		DTRACE_STATE_COUNT(state, dsr_speculations_unavail);
	return 0;
}

/*
 * A state word changes under a CAS loop only when another CPU moved it on,
 * a bounded number of times -- unless a traced process rewrites it without
 * end (it is in memory they can write).  Past this many tries probe context
 * gives up, as if the speculation were not active.
 */
#define DTRACE_SPEC_TRIES 64

/* Speculation `which`'s buffer on `cpu`: from the per-CPU arrays the
 * ledger recorded, never from the shared dtsp_buffer, which a traced
 * process could point anywhere (a state a test built has only that). */
static dtrace_buffer_t *
dtrace_speculation_cpubuf(const dtrace_state_t *state, const dtrace_speculation_t *spec,
			  dtrace_specid_t which, dtrace_cpuid_t cpu)
{
	if (state->dts_specbuf != NULL)
		return &state->dts_specbuf[which - 1][cpu];
	return &spec->dtsp_buffer[cpu];
}

dtrace_buffer_t *
dtrace_speculation_buffer(dtrace_state_t *state, dtrace_cpuid_t cpu, dtrace_specid_t which)
{
	dtrace_speculation_t *spec;
	dtrace_buffer_t *buf;
	uint32_t current, new;
	int tries = 0;

	if (which == 0)
		return NULL;
	if (which > (dtrace_specid_t)state->dts_nspeculations) {
		dtrace_cpu_core[cpu].cpuc_flags |= DTRACE_CPUF_ILLOP;
		return NULL;
	}
	spec = &state->dts_speculations[which - 1];
	buf = dtrace_speculation_cpubuf(state, spec, which, cpu);

	do {
		if (tries++ == DTRACE_SPEC_TRIES)
			return NULL;
		current = dtrace_load_acquire32(&spec->dtsp_state);
		switch (current) {
		case DTRACESPEC_ACTIVE:
			new = DTRACESPEC_ACTIVEONE;
			break;
		case DTRACESPEC_ACTIVEONE:
			/*
			 * Records here mean we are the one CPU; none mean another
			 * CPU is, and the speculation now spans several.
			 */
			if (buf->dtb_offset != 0)
				return buf;
			new = DTRACESPEC_ACTIVEMANY;
			break;
		case DTRACESPEC_ACTIVEMANY:
			return buf;
		default:
			/* INACTIVE, or being committed or discarded */
			return NULL;
		}
	} while (dtrace_cas32(&spec->dtsp_state, current, new) != current);
	return buf;
}

/*
 * Copy this CPU's speculative records into its principal buffer.  Both
 * headers are read once and checked against their geometries (gsrc, gdest;
 * NULL in a state a test built): a corrupt one is a drop, and the copy
 * never reads or writes outside the two buffers.
 */
static void
dtrace_speculation_copy(dtrace_state_t *state, dtrace_buffer_t *src, const dtrace_bufgeom_t *gsrc,
			dtrace_buffer_t *dest, const dtrace_bufgeom_t *gdest)
{
	dtrace_buffer_t s, d;
	uint64_t now, saddr;
	intptr_t offs;

	memcpy(&s, (const void *)src, sizeof(s));
	if (gsrc != NULL && !dtrace_bufgeom_check(gsrc, &s)) {
		dtrace_buffer_drop(dest);
		return;
	}
	if ((offs = dtrace_buffer_reserve_checked(dest, gdest, s.dtb_offset, sizeof(uint64_t), state,
						  NULL, &d)) < 0) {
		/*
		 * No room: a drop in the principal buffer, on top of the one
		 * the reservation may have counted itself -- DTrace counts both.
		 */
		dtrace_buffer_drop(dest);
		return;
	}
	if (s.dtb_offset == 0) {
		dest->dtb_offset = (uint64_t)offs;
		return;
	}

	/*
	 * Records were written with the timestamp UINT64_MAX: give them the
	 * commit time, so that the principal buffer stays in time order.
	 */
	now = dtrace_port_gethrtime();
	for (saddr = 0; saddr + sizeof(dtrace_epid_t) <= s.dtb_offset;) {
		dtrace_rechdr_t *dtrh = (dtrace_rechdr_t *)(void *)(s.dtb_tomax + saddr);
		dtrace_epid_t epid = dtrh->dtrh_epid;
		uint64_t size;

		if (epid == DTRACE_EPIDNONE || epid > state->dts_necbs ||
		    state->dts_ecbs[epid - 1] == NULL) {
			saddr += sizeof(dtrace_epid_t);
			continue;
		}
		size = state->dts_ecbs[epid - 1]->dte_size;
		if (size < sizeof(dtrace_rechdr_t) || saddr + size > s.dtb_offset)
			break;
		DTRACE_RECORD_STORE_TIMESTAMP(dtrh, now);
		saddr += size;
	}

	memcpy(d.dtb_tomax + offs, s.dtb_tomax, s.dtb_offset);
	dest->dtb_offset = (uint64_t)offs + s.dtb_offset;
}

void
dtrace_speculation_commit(dtrace_state_t *state, dtrace_cpuid_t cpu, dtrace_specid_t which)
{
	dtrace_speculation_t *spec;
	dtrace_buffer_t *src, *dest;
	uint32_t current, new = DTRACESPEC_INACTIVE;
	int tries = 0;

	if (which == 0)
		return;
	if (which > (dtrace_specid_t)state->dts_nspeculations) {
		dtrace_cpu_core[cpu].cpuc_flags |= DTRACE_CPUF_ILLOP;
		return;
	}
	spec = &state->dts_speculations[which - 1];
	src = dtrace_speculation_cpubuf(state, spec, which, cpu);
	dest = &state->dts_buffer[cpu];

	do {
		if (tries++ == DTRACE_SPEC_TRIES)
			return;
		current = dtrace_load_acquire32(&spec->dtsp_state);
		if (current == DTRACESPEC_COMMITTINGMANY)
			break; /* another CPU committed; ours is copied below */
		switch (current) {
		case DTRACESPEC_ACTIVE:
			new = DTRACESPEC_COMMITTING;
			break;
		case DTRACESPEC_ACTIVEONE:
			/* our records: the one CPU is us; else another CPU's
			 * records wait for the cleaner */
			new = src->dtb_offset != 0 ? DTRACESPEC_COMMITTING
						   : DTRACESPEC_COMMITTINGMANY;
			break;
		case DTRACESPEC_ACTIVEMANY:
			new = DTRACESPEC_COMMITTINGMANY;
			break;
		default:
			/*
			 * INACTIVE, DISCARDING, or COMMITTING by another CPU
			 * (that can only be when we never speculated here, so
			 * there is nothing of ours to copy).
			 */
			return;
		}
	} while (dtrace_cas32(&spec->dtsp_state, current, new) != current);

	/* (even an empty commit reserves, aligning the principal buffer, as DTrace) */
	dtrace_speculation_copy(state, src,
				dtrace_state_geom(state, DTRACE_LEDGER_SPEC + (int)(which - 1), cpu), dest,
				dtrace_state_geom(state, DTRACE_LEDGER_PRINCIPAL, cpu));

	/* Alone on this speculation: it is free again at once. */
	if (current == DTRACESPEC_ACTIVE ||
	    (current == DTRACESPEC_ACTIVEONE && new == DTRACESPEC_COMMITTING))
		(void)dtrace_cas32(&spec->dtsp_state, DTRACESPEC_COMMITTING, DTRACESPEC_INACTIVE);

	src->dtb_offset = 0;
	/* drops of committed data count as speculation drops (STATUS) */
	src->dtb_xamot_drops += src->dtb_drops;
	src->dtb_drops = 0;
}

void
dtrace_speculation_discard(dtrace_state_t *state, dtrace_cpuid_t cpu, dtrace_specid_t which)
{
	dtrace_speculation_t *spec;
	dtrace_buffer_t *buf;
	uint32_t current, new;
	int tries = 0;

	if (which == 0)
		return;
	if (which > (dtrace_specid_t)state->dts_nspeculations) {
		dtrace_cpu_core[cpu].cpuc_flags |= DTRACE_CPUF_ILLOP;
		return;
	}
	spec = &state->dts_speculations[which - 1];
	buf = dtrace_speculation_cpubuf(state, spec, which, cpu);

	do {
		if (tries++ == DTRACE_SPEC_TRIES)
			return;
		current = dtrace_load_acquire32(&spec->dtsp_state);
		switch (current) {
		case DTRACESPEC_ACTIVE:
		case DTRACESPEC_ACTIVEMANY:
			new = DTRACESPEC_DISCARDING;
			break;
		case DTRACESPEC_ACTIVEONE:
			new = buf->dtb_offset != 0 ? DTRACESPEC_INACTIVE : DTRACESPEC_DISCARDING;
			break;
		default:
			return;
		}
	} while (dtrace_cas32(&spec->dtsp_state, current, new) != current);

	buf->dtb_offset = 0;
	buf->dtb_drops = 0;
}

/* --- The cleaner ---------------------------------------------------------- */

typedef struct dtrace_spec_xarg {
	dtrace_ledger_t *dsx_ledger;
	dtrace_cpuid_t dsx_cpu;
} dtrace_spec_xarg_t;

/*
 * The cleaner's commit of one CPU's part (the CPU exclusive): what commit()
 * does for a COMMITTINGMANY speculation, on private copies of both headers
 * that the ledger has checked, so that a header a traced process rewrote
 * turns the copy into a counted drop rather than a copy from or to the wrong
 * place.  Only the results go back to shared memory.
 */
static void
dtrace_speculation_clean_commit(dtrace_state_t *state, dtrace_buffer_t *src,
				const dtrace_bufgeom_t *gs, dtrace_buffer_t *dest,
				const dtrace_bufgeom_t *gd)
{
	dtrace_buffer_t s, d;

	memcpy(&s, src, sizeof(s));
	memcpy(&d, dest, sizeof(d));
	if (!dtrace_bufgeom_check(gs, &s)) {
		/* The records cannot be trusted: dropped, as committed data
		 * that does not fit is, and the header made whole again. */
		dtrace_bufgeom_repair(gs, src);
		src->dtb_xamot_drops++;
		return;
	}
	if (!dtrace_bufgeom_check(gd, &d)) {
		/* They cannot go where they belong; the principal buffer's
		 * next snapshot reports its header. */
		src->dtb_offset = 0;
		src->dtb_drops = 0;
		src->dtb_xamot_drops++;
		return;
	}
	dtrace_speculation_copy(state, &s, NULL, &d, NULL); /* copies checked above */
	dest->dtb_offset = d.dtb_offset;
	dest->dtb_drops = d.dtb_drops;
	dest->dtb_flags = d.dtb_flags;
	dest->dtb_xamot_offset = d.dtb_xamot_offset;
	src->dtb_offset = 0;
	src->dtb_xamot_drops += s.dtb_drops;
	src->dtb_drops = 0;
}

/* On one CPU, exclusive: finish its part of committing and discarding. */
static void
dtrace_speculation_clean_here(void *arg)
{
	dtrace_spec_xarg_t *xa = arg;
	dtrace_ledger_t *l = xa->dsx_ledger;
	dtrace_cpuid_t cpu = xa->dsx_cpu;
	const dtrace_bufgeom_t *gd;

	if (l->dl_buffer == NULL || cpu >= l->dl_ncpus)
		return;
	gd = &dtrace_ledger_geom(l, DTRACE_LEDGER_PRINCIPAL)[cpu];
	if (gd->dbg_size == 0)
		return;
	for (int i = 0; i < l->dl_nspec; i++) {
		dtrace_speculation_t *spec = &l->dl_specs[i];
		const dtrace_bufgeom_t *gs = &dtrace_ledger_geom(l, DTRACE_LEDGER_SPEC + i)[cpu];
		dtrace_buffer_t *src = &l->dl_specbuf[i][cpu];
		uint32_t current = dtrace_load_acquire32(&spec->dtsp_state);

		if (gs->dbg_size == 0)
			continue;
		if (current == DTRACESPEC_DISCARDING) {
			src->dtb_offset = 0;
			continue;
		}
		if (current == DTRACESPEC_COMMITTINGMANY && src->dtb_offset != 0)
			dtrace_speculation_clean_commit(l->dl_state, src, gs, &l->dl_buffer[cpu], gd);
	}
}

void
dtrace_speculation_clean_ledger(dtrace_ledger_t *l)
{
	int work = 0;

	if (l->dl_specs == NULL)
		return;
	for (int i = 0; i < l->dl_nspec; i++) {
		dtrace_speculation_t *spec = &l->dl_specs[i];
		uint32_t current = dtrace_load_acquire32(&spec->dtsp_state);

		/*
		 * No state at all: a traced process wrote it.  Discarding is the
		 * way back to INACTIVE that keeps nothing of what it holds.
		 */
		if (current > DTRACESPEC_DISCARDING) {
			if (dtrace_cas32(&spec->dtsp_state, current, DTRACESPEC_DISCARDING) != current)
				continue;
			current = DTRACESPEC_DISCARDING;
		}
		if (current != DTRACESPEC_DISCARDING && current != DTRACESPEC_COMMITTINGMANY)
			continue;
		/*
		 * Only these are finished below: one that reaches those states
		 * after this point waits for the next round, since a CPU may
		 * still be adding to it before the cross-calls pass.  The marks
		 * are the ledger's, out of the traced processes' reach.
		 */
		l->dl_cleaning[i] = 1;
		work++;
	}
	if (work == 0)
		return;

	for (dtrace_cpuid_t c = 0; c < dtrace_port_ncpus(); c++) {
		dtrace_spec_xarg_t xa = {l, c};

		dtrace_port_xcall(c, dtrace_speculation_clean_here, &xa);
	}

	/* Every CPU has copied or emptied its part: the speculations are free. */
	for (int i = 0; i < l->dl_nspec; i++) {
		dtrace_speculation_t *spec = &l->dl_specs[i];
		uint32_t current;

		if (!l->dl_cleaning[i])
			continue;
		current = dtrace_load_acquire32(&spec->dtsp_state);
		(void)dtrace_cas32(&spec->dtsp_state, current, DTRACESPEC_INACTIVE);
		l->dl_cleaning[i] = 0;
	}
}

void
dtrace_speculation_clean(dtrace_state_t *state)
{
	dtrace_ledger_t *l = dtrace_ledger_lookup(state);

	if (l != NULL)
		dtrace_speculation_clean_ledger(l);
}

/* --- STATUS ---------------------------------------------------------------- */

void
dtrace_buffer_status(dtrace_state_t *state, dtrace_status_t *st)
{
	dtrace_ledger_t *l = dtrace_ledger_lookup(state);

	st->dtst_specdrops = 0;
	if (state->dts_rw != NULL) {
		st->dtst_specdrops_busy = state->dts_rw->dsr_speculations_busy;
		st->dtst_specdrops_unavail = state->dts_rw->dsr_speculations_unavail;
	}
	if (l == NULL)
		return;
	/* counts only; the arrays are the ledger's */
	for (dtrace_cpuid_t c = 0; c < l->dl_ncpus && l->dl_buffer != NULL; c++) {
		if (l->dl_buffer[c].dtb_flags & DTRACEBUF_FULL)
			st->dtst_filled++;
		st->dtst_errors += l->dl_buffer[c].dtb_errors;
	}
	for (int i = 0; i < l->dl_nspec; i++) {
		for (dtrace_cpuid_t c = 0; c < l->dl_ncpus; c++)
			st->dtst_specdrops += l->dl_specbuf[i][c].dtb_xamot_drops;
	}
}
