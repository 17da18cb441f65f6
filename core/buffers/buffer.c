/*
 * core/buffers/buffer.c: principal buffers -- allocation, the reserve path
 * of the switch, fill and ring policies, switching and snapshots.
 *
 * Who calls what, in which context:
 *   - GO (fw, framework lock held): dtrace_state_buffers() sizes and
 *     allocates every buffer of the state, then dtrace_buffer_activate*().
 *   - Probe context (fw's ECB walker): dtrace_buffer_reserve() for every
 *     record; it never allocates, never waits, and its only loops are
 *     bounded by the buffer size (alignment padding, and the ring's walk over
 *     the records it overwrites).
 *   - BUFSNAP/AGGSNAP (fw's control operations, framework lock held):
 *     dtrace_buffer_snapshot(), which swaps a CPU's halves with a cross-call
 *     on that CPU.  Outside probe context nothing here believes a shared
 *     header: addresses and sizes come from the state's ledger (ledger.c),
 *     offsets are checked against it before any copy.
 *
 * Invariants:
 *   - Only the owning CPU (in probe context, or in a cross-call on it)
 *     writes a buffer's active half and its offset, so nothing here is
 *     atomic.
 *   - dtb_offset is always a multiple of 4; a record begins with its EPID,
 *     and padding up to a record's alignment is made of DTRACE_EPIDNONE
 *     words, which the consumer skips 4 bytes at a time.
 *   - Ring buffers: dtb_xamot_offset (while DTRACEBUF_WRAPPED) is the offset
 *     of the oldest record still whole; every byte from there to dtb_offset
 *     (going around) is whole records or EPIDNONE padding, once the data is
 *     polished at snapshot time.
 */
#include "../dtrace_impl.h"

/* The largest buffer a size option may ask for: offsets must fit intptr_t. */
#define DTRACE_BUFSIZE_MAX ((uint64_t)INTPTR_MAX / 2)
/*
 * The largest per-CPU buffer a consumer without every privilege may have
 * (DTrace's dtrace_nonroot_maxsize): beyond it GO fails with EFBIG, and the
 * size is not shrunk to fit, as it is for a shortage of memory.
 */
#define DTRACE_NONROOT_MAXSIZE ((uint64_t)16 * 1024 * 1024)

/* --- Allocation ---------------------------------------------------------- */

/*
 * Free one CPU's halves as its geometry has them and forget them.  The
 * shared header is cleared but never read: a traced process could have
 * pointed it anywhere.
 */
static void
dtrace_buffer_free_one(dtrace_buffer_t *buf, dtrace_bufgeom_t *g)
{
	if (g->dbg_half[1] != NULL)
		dtrace_port_free_probe(g->dbg_half[1], g->dbg_size);
	if (g->dbg_half[0] != NULL)
		dtrace_port_free_probe(g->dbg_half[0], g->dbg_size);
	memset(g, 0, sizeof(*g));
	buf->dtb_tomax = NULL;
	buf->dtb_xamot = NULL;
	buf->dtb_size = 0;
}

int
dtrace_buffer_alloc(dtrace_buffer_t *bufs, dtrace_bufgeom_t *geom, size_t size, uint32_t flags,
		    dtrace_cpuid_t cpu, int *factor)
{
	uint32_t ncpus = dtrace_port_ncpus();
	uint64_t wanted = 0, got = 0;

	*factor = 1;
	if (cpu != DTRACE_CPU_ALL && cpu >= ncpus)
		return DTRACE_EINVAL;
	if (size == 0 || size > DTRACE_BUFSIZE_MAX)
		return DTRACE_ENOMEM;

	for (dtrace_cpuid_t c = 0; c < ncpus; c++) {
		dtrace_buffer_t *buf = &bufs[c];
		dtrace_bufgeom_t *g = &geom[c];
		char *half;

		if (cpu != DTRACE_CPU_ALL && c != cpu)
			continue;
		/* A buffer already there (a CPU brought back) keeps its size. */
		if (g->dbg_half[0] != NULL)
			continue;
		if ((half = dtrace_port_zalloc_probe(size)) == NULL)
			goto err;
		/* in the ledger at once, so that the error path frees it */
		g->dbg_half[0] = half;
		g->dbg_size = size;
		g->dbg_flags = flags & DTRACEBUF_POLICY;
		g->dbg_consumed = false;
		buf->dtb_tomax = half;
		buf->dtb_size = size;
		buf->dtb_flags = flags;
		buf->dtb_offset = 0;
		buf->dtb_drops = 0;
		buf->dtb_errors = 0;
		buf->dtb_xamot_offset = 0;
		buf->dtb_xamot_drops = 0;
		buf->dtb_xamot_errors = 0;
		if (!(flags & DTRACEBUF_NOSWITCH)) {
			if ((half = dtrace_port_zalloc_probe(size)) == NULL)
				goto err;
			g->dbg_half[1] = half;
			buf->dtb_xamot = half;
		}
		if (flags & DTRACEBUF_AGGREGATION)
			dtrace_aggbuffer_reset(buf, g->dbg_half[0], size);
	}
	return 0;

err:
	/*
	 * All or nothing.  Tell the caller how far short we fell, so that it
	 * can shrink by more than half when memory is much scarcer than asked.
	 */
	for (dtrace_cpuid_t c = 0; c < ncpus; c++) {
		if (cpu != DTRACE_CPU_ALL && c != cpu)
			continue;
		wanted += 2; /* DTrace counts two halves per CPU even for NOSWITCH */
		got += (geom[c].dbg_half[0] != NULL) + (geom[c].dbg_half[1] != NULL);
		dtrace_buffer_free_one(&bufs[c], &geom[c]);
	}
	*factor = (int)(wanted / (got > 0 ? got : 1));
	return DTRACE_ENOMEM;
}

void
dtrace_buffer_free(dtrace_buffer_t *bufs, dtrace_bufgeom_t *geom)
{
	if (bufs == NULL || geom == NULL)
		return;
	for (dtrace_cpuid_t c = 0; c < dtrace_port_ncpus(); c++)
		dtrace_buffer_free_one(&bufs[c], &geom[c]);
}

int
dtrace_state_buffer(dtrace_state_t *state, dtrace_buffer_t *bufs, dtrace_bufgeom_t *geom,
		    int which)
{
	dtrace_optval_t *opt = state->dts_options;
	dtrace_cpuid_t cpu = DTRACE_CPU_ALL;
	uint32_t flags = 0;
	int64_t divisor = 1;
	int factor, rval;

	if (opt[which] == DTRACEOPT_UNSET || opt[which] == 0)
		return 0;
	if (opt[DTRACEOPT_CPU] != DTRACEOPT_UNSET) {
		if (opt[DTRACEOPT_CPU] < 0 || opt[DTRACEOPT_CPU] >= (dtrace_optval_t)UINT32_MAX)
			return DTRACE_EINVAL;
		cpu = (dtrace_cpuid_t)opt[DTRACEOPT_CPU];
	}

	switch (which) {
	case DTRACEOPT_SPECSIZE:
		flags |= DTRACEBUF_NOSWITCH;
		break;
	case DTRACEOPT_AGGSIZE:
		flags |= DTRACEBUF_AGGREGATION;
		break;
	case DTRACEOPT_BUFSIZE:
		if (opt[DTRACEOPT_BUFPOLICY] == DTRACEOPT_BUFPOLICY_RING)
			flags |= DTRACEBUF_RING;
		if (opt[DTRACEOPT_BUFPOLICY] == DTRACEOPT_BUFPOLICY_FILL)
			flags |= DTRACEBUF_FILL;
		/* Records only start once GO has fired BEGIN (see activate). */
		if (state->dts_activity != DTRACE_ACTIVITY_ACTIVE)
			flags |= DTRACEBUF_INACTIVE;
		break;
	default:
		return DTRACE_EINVAL;
	}

	/*
	 * DTrace's sizing: round down to 8 bytes; never below the END/ERROR
	 * reserve (E2BIG, so the consumer can tell it from ENOMEM); above
	 * 16 MB per CPU only for a consumer with every privilege (EFBIG); on ENOMEM
	 * shrink by the smallest power of two covering the shortfall, unless
	 * the consumer asked for bufresize=manual.
	 */
	for (int64_t size = opt[which]; size >= (int64_t)sizeof(uint64_t); size /= divisor) {
		size &= ~(int64_t)(sizeof(uint64_t) - 1);
		if ((uint64_t)size < state->dts_reserve)
			return DTRACE_E2BIG;
		if ((uint64_t)size > DTRACE_NONROOT_MAXSIZE && state->dts_priv != DTRACE_PRIV_ALL)
			return DTRACE_EFBIG;
		if ((uint64_t)size > DTRACE_BUFSIZE_MAX)
			size = (int64_t)DTRACE_BUFSIZE_MAX & ~(int64_t)7;

		rval = dtrace_buffer_alloc(bufs, geom, (size_t)size, flags, cpu, &factor);
		if (rval != DTRACE_ENOMEM) {
			if (rval == 0)
				opt[which] = size;
			return rval;
		}
		if (opt[DTRACEOPT_BUFRESIZE] == DTRACEOPT_BUFRESIZE_MANUAL)
			return rval;
		for (divisor = 2; divisor < factor; divisor <<= 1)
			continue;
	}
	return DTRACE_ENOMEM;
}

static dtrace_buffer_t *
dtrace_buffer_array(void)
{
	return dtrace_port_zalloc_probe((size_t)dtrace_port_ncpus() * sizeof(dtrace_buffer_t));
}

static void
dtrace_buffer_array_free(dtrace_buffer_t *bufs, dtrace_bufgeom_t *geom)
{
	if (bufs == NULL)
		return;
	dtrace_buffer_free(bufs, geom);
	dtrace_port_free_probe(bufs, (size_t)dtrace_port_ncpus() * sizeof(dtrace_buffer_t));
}

/*
 * Everything the ledger says the state has; the state's shared pointers are
 * only cleared.  Without a ledger the state never had buffers.
 */
void
dtrace_state_buffers_free(dtrace_state_t *state)
{
	dtrace_ledger_t *l = dtrace_ledger_lookup(state);

	if (l != NULL) {
		dtrace_buffer_array_free(l->dl_buffer,
					 dtrace_ledger_geom(l, DTRACE_LEDGER_PRINCIPAL));
		dtrace_buffer_array_free(l->dl_aggbuffer, dtrace_ledger_geom(l, DTRACE_LEDGER_AGG));
		for (int i = 0; i < l->dl_nspec; i++)
			dtrace_buffer_array_free(l->dl_specbuf[i],
						 dtrace_ledger_geom(l, DTRACE_LEDGER_SPEC + i));
		if (l->dl_specs != NULL)
			dtrace_port_free_probe(l->dl_specs,
					 (size_t)l->dl_nspec * sizeof(dtrace_speculation_t));
		state->dts_geom = NULL;
		state->dts_specbuf = NULL;
		dtrace_ledger_destroy(l);
	}
	state->dts_buffer = NULL;
	state->dts_aggbuffer = NULL;
	state->dts_speculations = NULL;
	state->dts_nspeculations = 0;
}

int
dtrace_state_buffers(dtrace_state_t *state)
{
	dtrace_optval_t nspec = state->dts_options[DTRACEOPT_NSPEC];
	int rval = DTRACE_ENOMEM;
	dtrace_ledger_t *l;

	if (nspec == DTRACEOPT_UNSET)
		nspec = DTRACE_NSPEC_DEFAULT;
	if (nspec < 0 || nspec > INT32_MAX)
		return DTRACE_ENOMEM; /* as DTrace: no such number of speculations */
	if (dtrace_ledger_lookup(state) != NULL)
		return DTRACE_EBUSY;
	if ((l = dtrace_ledger_create(state, dtrace_port_ncpus(), (int)nspec)) == NULL)
		return DTRACE_ENOMEM;
	state->dts_geom = l->dl_geom;
	state->dts_specbuf = l->dl_specbuf;

	/*
	 * Each array goes into the ledger before the state sees it, so that
	 * what is freed is always what was allocated.
	 */
	if ((l->dl_buffer = dtrace_buffer_array()) == NULL)
		goto err;
	state->dts_buffer = l->dl_buffer;
	if ((l->dl_aggbuffer = dtrace_buffer_array()) == NULL)
		goto err;
	state->dts_aggbuffer = l->dl_aggbuffer;

	/* The number of speculations is never resized: fail if it cannot be had. */
	if (nspec > 0) {
		l->dl_specs = dtrace_port_zalloc_probe((size_t)nspec * sizeof(dtrace_speculation_t));
		if (l->dl_specs == NULL)
			goto err;
		for (int i = 0; i < l->dl_nspec; i++) {
			if ((l->dl_specbuf[i] = dtrace_buffer_array()) == NULL)
				goto err;
			l->dl_specs[i].dtsp_buffer = l->dl_specbuf[i];
		}
		state->dts_speculations = l->dl_specs;
		state->dts_nspeculations = l->dl_nspec;
	}

	rval = dtrace_state_buffer(state, l->dl_buffer,
				   dtrace_ledger_geom(l, DTRACE_LEDGER_PRINCIPAL), DTRACEOPT_BUFSIZE);
	if (rval != 0)
		goto err;
	rval = dtrace_state_buffer(state, l->dl_aggbuffer, dtrace_ledger_geom(l, DTRACE_LEDGER_AGG),
				   DTRACEOPT_AGGSIZE);
	if (rval != 0)
		goto err;
	for (int i = 0; i < l->dl_nspec; i++) {
		rval = dtrace_state_buffer(state, l->dl_specbuf[i],
					   dtrace_ledger_geom(l, DTRACE_LEDGER_SPEC + i),
					   DTRACEOPT_SPECSIZE);
		if (rval != 0)
			goto err;
	}
	return 0;

err:
	dtrace_state_buffers_free(state);
	return rval != 0 ? rval : DTRACE_ENOMEM;
}

/* --- Activation ---------------------------------------------------------- */

typedef struct dtrace_buffer_xarg {
	dtrace_ledger_t *dbx_ledger;
	dtrace_cpuid_t dbx_cpu;
} dtrace_buffer_xarg_t;

static void
dtrace_buffer_activate_here(dtrace_ledger_t *l, dtrace_cpuid_t cpu)
{
	if (l == NULL || l->dl_buffer == NULL || cpu >= l->dl_ncpus)
		return;
	/* The BEGIN CPU was activated by hand already: clearing again is harmless. */
	if (dtrace_ledger_geom(l, DTRACE_LEDGER_PRINCIPAL)[cpu].dbg_half[0] != NULL)
		l->dl_buffer[cpu].dtb_flags &= ~DTRACEBUF_INACTIVE;
}

static void
dtrace_buffer_activate_xcall(void *arg)
{
	dtrace_buffer_xarg_t *xa = arg;

	dtrace_buffer_activate_here(xa->dbx_ledger, xa->dbx_cpu);
}

void
dtrace_buffer_activate_cpu(dtrace_state_t *state, dtrace_cpuid_t cpu)
{
	dtrace_buffer_activate_here(dtrace_ledger_lookup(state), cpu);
}

void
dtrace_buffer_activate(dtrace_state_t *state)
{
	dtrace_ledger_t *l = dtrace_ledger_lookup(state);

	/*
	 * One cross-call per CPU, each clearing the flag with that CPU
	 * exclusive: no CPU can be half-way down a probe's ECB chain when its
	 * buffer starts accepting records, so every CPU goes from recording
	 * none of the state's ECBs to recording all of them.
	 */
	for (dtrace_cpuid_t c = 0; c < dtrace_port_ncpus(); c++) {
		dtrace_buffer_xarg_t xa = {l, c};

		dtrace_port_xcall(c, dtrace_buffer_activate_xcall, &xa);
	}
}

/* --- Reservation (probe context) ------------------------------------------- */

/* Pad from `offs` up to `align` with EPIDNONE words; returns the new offset. */
static inline uint64_t
dtrace_buffer_pad(char *tomax, uint64_t offs, size_t align)
{
	while (offs & (align - 1)) {
		uint32_t none = DTRACE_EPIDNONE;

		memcpy(tomax + offs, &none, sizeof(none));
		offs += sizeof(uint32_t);
	}
	return offs;
}

/*
 * Ring policy: make room for `total` bytes (padding included) at `offs` by
 * moving the oldest-record offset past every record the new one will
 * overwrite.  Returns the (possibly wrapped to 0) offset to store at, or -1
 * when the record cannot fit in the buffer at all.
 */
static intptr_t
dtrace_buffer_ring_advance(dtrace_buffer_t *buf, uint64_t offs, uint64_t *totalp, uint64_t needed,
			   dtrace_state_t *state)
{
	char *tomax = buf->dtb_tomax;
	uint64_t total = *totalp;
	uint64_t woffs = buf->dtb_xamot_offset;

	if (offs + total > buf->dtb_size) {
		if (total > buf->dtb_size) {
			dtrace_buffer_drop(buf);
			return -1;
		}
		/*
		 * Wrap to the top.  The oldest record moves to 0 unless an
		 * earlier reservation already wrapped without being committed
		 * (the oldest offset is then below us and still right).
		 */
		if (!(buf->dtb_flags & DTRACEBUF_WRAPPED) || woffs >= offs)
			woffs = 0;
		/* Old records' tails between here and the end must not be read. */
		memset(tomax + offs, 0, buf->dtb_size - offs);
		offs = 0;
		total = needed; /* the top of the buffer is aligned */
		buf->dtb_flags |= DTRACEBUF_WRAPPED;
	} else if (woffs < offs) {
		/*
		 * An uncommitted reservation wrapped earlier and the oldest
		 * offset was left behind us: we do not reach it.
		 */
		*totalp = total;
		return (intptr_t)offs;
	}

	/*
	 * Step the oldest offset over the records we will overwrite.  Bounded:
	 * every step advances by at least 4 bytes within the buffer.
	 */
	while (offs + total > woffs) {
		dtrace_epid_t epid;
		uint64_t size;

		memcpy(&epid, tomax + woffs, sizeof(epid));
		if (epid == DTRACE_EPIDNONE || epid > state->dts_necbs ||
		    state->dts_ecbs[epid - 1] == NULL || state->dts_ecbs[epid - 1]->dte_size == 0)
			size = sizeof(uint32_t);
		else
			size = state->dts_ecbs[epid - 1]->dte_size;

		if (woffs + size >= buf->dtb_size) {
			/*
			 * That was the last record before the end.  If we are
			 * storing at 0, the new record plus the one it
			 * overwrites exceed the buffer: nothing old survives, so
			 * the buffer is as if it had never wrapped.
			 */
			if (offs == 0) {
				buf->dtb_flags &= ~DTRACEBUF_WRAPPED;
				buf->dtb_offset = 0;
				memset(tomax + total, 0, buf->dtb_size - total);
			}
			woffs = 0;
			break;
		}
		woffs += size;
	}
	buf->dtb_xamot_offset = woffs;
	*totalp = total;
	return (intptr_t)offs;
}

intptr_t
dtrace_buffer_reserve_checked(dtrace_buffer_t *buf, const dtrace_bufgeom_t *g, size_t needed,
			      size_t align, dtrace_state_t *state, dtrace_mstate_t *mstate,
			      dtrace_buffer_t *view)
{
	intptr_t offs;

	if (g == NULL) {
		offs = dtrace_buffer_reserve(buf, needed, align, state, mstate);
		*view = *buf;
		return offs;
	}
	/* One read of each field of the shared header that reserving uses;
	 * from here on only the copy counts (the check fills in the rest). */
	*view = (dtrace_buffer_t){.dtb_offset = buf->dtb_offset,
				  .dtb_flags = buf->dtb_flags,
				  .dtb_drops = buf->dtb_drops,
				  .dtb_tomax = buf->dtb_tomax,
				  .dtb_xamot_offset = buf->dtb_xamot_offset};
	if (!dtrace_bufgeom_check(g, view)) {
		/* A traced process wrote it: drop, the next snapshot repairs it. */
		dtrace_buffer_drop(buf);
		return -1;
	}
	offs = dtrace_buffer_reserve(view, needed, align, state, mstate);
	/* What reserve changes, back where the consumer reads it. */
	buf->dtb_offset = view->dtb_offset;
	buf->dtb_flags = view->dtb_flags;
	buf->dtb_drops = view->dtb_drops;
	buf->dtb_xamot_offset = view->dtb_xamot_offset;
	return offs;
}

intptr_t
dtrace_buffer_reserve(dtrace_buffer_t *buf, size_t needed, size_t align, dtrace_state_t *state,
		      dtrace_mstate_t *mstate)
{
	uint64_t offs = buf->dtb_offset;
	char *tomax;

	if (buf->dtb_flags & DTRACEBUF_INACTIVE)
		return -1;
	if ((tomax = buf->dtb_tomax) == NULL) {
		dtrace_buffer_drop(buf);
		return -1;
	}

	if (!(buf->dtb_flags & (DTRACEBUF_RING | DTRACEBUF_FILL))) {
		/* The switch policy (and speculation buffers): the common path. */
		uint64_t end;

		offs = dtrace_buffer_pad(tomax, offs, align);
		if ((end = offs + needed) > buf->dtb_size) {
			dtrace_buffer_drop(buf);
			return -1;
		}
		if (mstate != NULL) {
			mstate->dtms_scratch_base = (uintptr_t)tomax + end;
			mstate->dtms_scratch_size = buf->dtb_size - end;
			mstate->dtms_scratch_ptr = mstate->dtms_scratch_base;
		}
		return (intptr_t)offs;
	}

	if (buf->dtb_flags & DTRACEBUF_FILL) {
		/* Once full, only END and ERROR (in COOLDOWN) use the reserve. */
		if (dtrace_state_activity(state) != DTRACE_ACTIVITY_COOLDOWN &&
		    (buf->dtb_flags & DTRACEBUF_FULL))
			return -1;
	} else {
		uint64_t total = needed + (offs & (align - 1));

		if ((buf->dtb_flags & DTRACEBUF_WRAPPED) || offs + total > buf->dtb_size) {
			intptr_t r = dtrace_buffer_ring_advance(buf, offs, &total, needed, state);

			if (r < 0)
				return -1;
			offs = (uint64_t)r;
		}
	}

	offs = dtrace_buffer_pad(tomax, offs, align);

	if (buf->dtb_flags & DTRACEBUF_FILL) {
		/*
		 * The END/ERROR reserve stays free until COOLDOWN (when fw sets
		 * dts_reserve to 0).  A full fill buffer stops the state: the
		 * consumer sees dtst_filled and stops it, as in DTrace.
		 */
		if (offs + needed > buf->dtb_size - (state->dts_reserve < buf->dtb_size ? state->dts_reserve : buf->dtb_size)) {
			buf->dtb_flags |= DTRACEBUF_FULL;
			return -1;
		}
	}

	if (mstate != NULL) {
		/* Ring and fill buffers never switch: their other half is scratch. */
		mstate->dtms_scratch_base = (uintptr_t)buf->dtb_xamot;
		mstate->dtms_scratch_size = buf->dtb_xamot != NULL ? buf->dtb_size : 0;
		mstate->dtms_scratch_ptr = mstate->dtms_scratch_base;
	}
	return (intptr_t)offs;
}

/* --- Switching and snapshots --------------------------------------------- */

/*
 * A switch, run on the buffer's CPU with it exclusive.  Everything the
 * consumer will use is read from the shared header once, checked against
 * the ledger and handed back here, in the caller's (private) argument.
 */
typedef struct dtrace_buffer_switch_arg {
	dtrace_buffer_t *dsa_buf;
	const dtrace_bufgeom_t *dsa_geom;
	bool dsa_ran;	      /* the port reached the CPU */
	bool dsa_corrupt;     /* the header failed the check; repaired */
	char *dsa_data;	      /* the half switched out, and its bytes */
	uint64_t dsa_size;
	uint64_t dsa_drops;
	uint32_t dsa_errors;
	uint64_t dsa_switched; /* when */
} dtrace_buffer_switch_arg_t;

static void
dtrace_buffer_switch_xcall(void *arg)
{
	dtrace_buffer_switch_arg_t *sa = arg;
	const dtrace_bufgeom_t *g = sa->dsa_geom;
	dtrace_buffer_t *buf = sa->dsa_buf, b;
	uint64_t now = dtrace_port_gethrtime();

	sa->dsa_ran = true;
	memcpy(&b, buf, sizeof(b));
	if (!dtrace_bufgeom_check(g, &b)) {
		dtrace_bufgeom_repair(g, buf);
		sa->dsa_corrupt = true;
		return;
	}
	sa->dsa_data = b.dtb_tomax;
	sa->dsa_size = b.dtb_offset;
	sa->dsa_drops = b.dtb_drops;
	sa->dsa_errors = b.dtb_errors;
	sa->dsa_switched = now;

	buf->dtb_tomax = b.dtb_xamot;
	buf->dtb_xamot = b.dtb_tomax;
	buf->dtb_size = b.dtb_size;
	buf->dtb_xamot_drops = b.dtb_drops;
	buf->dtb_xamot_offset = b.dtb_offset;
	buf->dtb_xamot_errors = b.dtb_errors;
	buf->dtb_xamot_flags = b.dtb_flags;
	buf->dtb_offset = 0;
	buf->dtb_drops = 0;
	buf->dtb_errors = 0;
	buf->dtb_flags = b.dtb_flags & ~(uint32_t)DTRACEBUF_DROPPED;
	buf->dtb_interval = now - b.dtb_switched;
	buf->dtb_switched = now;
	if (g->dbg_flags & DTRACEBUF_AGGREGATION)
		dtrace_aggbuffer_reset(buf, b.dtb_xamot, b.dtb_size);
}

/*
 * A wrapped ring buffer may hold a gap between the newest record and the
 * oldest (alignment, or a reservation that was never committed): zero it so
 * that the consumer reads it as EPIDNONE padding.  `b` is the checked copy
 * of the header: its offsets lie within the buffer.
 */
static void
dtrace_buffer_polish(const dtrace_buffer_t *b)
{
	uint64_t offs = b->dtb_offset, oldest = b->dtb_xamot_offset;

	if (!(b->dtb_flags & DTRACEBUF_WRAPPED))
		return;
	if (offs < oldest)
		memset(b->dtb_tomax + offs, 0, oldest - offs);
	if (offs > oldest) {
		memset(b->dtb_tomax + offs, 0, b->dtb_size - offs);
		memset(b->dtb_tomax, 0, oldest);
	}
}

/* Ring and fill buffers: read in place once the state has stopped. */
static int
dtrace_buffer_snapshot_stopped(dtrace_state_t *state, dtrace_buffer_t *buf, dtrace_bufgeom_t *g,
			       dtrace_bufdesc_t *desc, dtrace_buffer_copyout_t copyout, void *ctx)
{
	dtrace_buffer_t b;
	uint64_t sz;

	/* Probes could still be writing it before. */
	if (state->dts_activity != DTRACE_ACTIVITY_STOPPED)
		return DTRACE_EBUSY;
	if (g->dbg_consumed) {
		desc->dtbd_size = 0;
		desc->dtbd_drops = 0;
		desc->dtbd_errors = 0;
		desc->dtbd_oldest = 0;
		return 0;
	}
	memcpy(&b, buf, sizeof(b));
	if (!dtrace_bufgeom_check(g, &b)) {
		dtrace_bufgeom_repair(g, buf);
		g->dbg_consumed = true;
		return DTRACE_EBADMSG;
	}
	sz = (b.dtb_flags & DTRACEBUF_WRAPPED) ? b.dtb_size : b.dtb_offset;
	if (desc->dtbd_size != 0 && desc->dtbd_size < sz)
		return DTRACE_ENOSPC;
	dtrace_buffer_polish(&b);
	if (sz != 0 && copyout(ctx, b.dtb_tomax, (uintptr_t)desc->dtbd_data, sz) != 0)
		return DTRACE_EFAULT;
	desc->dtbd_size = sz;
	desc->dtbd_drops = b.dtb_drops;
	desc->dtbd_errors = b.dtb_errors;
	desc->dtbd_oldest = b.dtb_xamot_offset;
	desc->dtbd_timestamp = dtrace_port_gethrtime();
	g->dbg_consumed = true;
	buf->dtb_flags |= DTRACEBUF_CONSUMED;
	return 0;
}

static int
dtrace_buffer_copy_memcpy(void *ctx, const void *src, uintptr_t dst, size_t len)
{
	(void)ctx;
	memcpy((void *)dst, src, len);
	return 0;
}

int
dtrace_buffer_snapshot(dtrace_state_t *state, dtrace_buffer_t *bufs, dtrace_bufdesc_t *desc)
{
	return dtrace_buffer_snapshot_copy(state, bufs, desc, dtrace_buffer_copy_memcpy, NULL);
}

int
dtrace_buffer_snapshot_copy(dtrace_state_t *state, dtrace_buffer_t *bufs, dtrace_bufdesc_t *desc,
			    dtrace_buffer_copyout_t copyout, void *ctx)
{
	dtrace_buffer_switch_arg_t sa;
	dtrace_ledger_t *l;
	dtrace_bufgeom_t *g;

	if (desc->dtbd_cpu >= dtrace_port_ncpus())
		return DTRACE_EINVAL;
	if (bufs == NULL || (l = dtrace_ledger_lookup(state)) == NULL)
		return DTRACE_ENOENT;
	if (desc->dtbd_cpu >= l->dl_ncpus)
		return DTRACE_EINVAL;
	if (bufs == l->dl_buffer)
		g = &dtrace_ledger_geom(l, DTRACE_LEDGER_PRINCIPAL)[desc->dtbd_cpu];
	else if (bufs == l->dl_aggbuffer)
		g = &dtrace_ledger_geom(l, DTRACE_LEDGER_AGG)[desc->dtbd_cpu];
	else
		return DTRACE_EINVAL;
	if (g->dbg_size == 0)
		return DTRACE_ENOENT;

	/* The policy is the one allocated, whatever the shared flags say. */
	if (g->dbg_flags & (DTRACEBUF_RING | DTRACEBUF_FILL))
		return dtrace_buffer_snapshot_stopped(state, &bufs[desc->dtbd_cpu], g, desc, copyout,
						      ctx);

	if (g->dbg_half[1] == NULL)
		return DTRACE_ENOENT;
	if (desc->dtbd_size != 0 && desc->dtbd_size < g->dbg_size)
		return DTRACE_ENOSPC;

	memset(&sa, 0, sizeof(sa));
	sa.dsa_buf = &bufs[desc->dtbd_cpu];
	sa.dsa_geom = g;
	dtrace_port_xcall(desc->dtbd_cpu, dtrace_buffer_switch_xcall, &sa);
	/* A CPU the port could not reach did not switch: nothing to read. */
	if (!sa.dsa_ran)
		return DTRACE_ENOENT;
	if (sa.dsa_corrupt)
		return DTRACE_EBADMSG;
	state->dts_errors += sa.dsa_errors;

	if (sa.dsa_size != 0 &&
	    copyout(ctx, sa.dsa_data, (uintptr_t)desc->dtbd_data, sa.dsa_size) != 0)
		return DTRACE_EFAULT;
	desc->dtbd_size = sa.dsa_size;
	desc->dtbd_drops = sa.dsa_drops;
	desc->dtbd_errors = sa.dsa_errors;
	desc->dtbd_oldest = 0;
	desc->dtbd_timestamp = sa.dsa_switched;
	return 0;
}

/* --- Aggregation buffers' key index ------------------------------------ */

/*
 * Layout of the active half of an aggregation buffer:
 *
 *   0 .. dtb_offset            entries (key + value): what the consumer reads
 *   ... free ...
 *   dtb_agg_free .. hash       index entries (dtrace_aggkey_t in aggregation.c, 24 bytes), growing down: key i
 *                              is at dtb_agg_hash - (i + 1) * 24
 *   dtb_agg_hash .. dtb_size   buckets: uint32_t index + 1 of a chain's
 *                              first key, 0 for an empty chain
 *
 * About 1/64 of the buffer goes to buckets (DTrace gives 1/8 to pointers),
 * a power of two so that the bucket is a mask, not a divide; at least two,
 * so the key entries below stay 8-byte aligned.  Called at allocation and
 * by every switch, with the CPU exclusive; never in probe context.
 */
void
dtrace_aggbuffer_reset(dtrace_buffer_t *buf, char *tomax, uint64_t size)
{
	uint64_t nbuckets = 2;

	while (nbuckets * 2 <= size / 64 && nbuckets < ((uint64_t)1 << 30))
		nbuckets *= 2;
	buf->dtb_agg_nkeys = 0;
	if (tomax == NULL || nbuckets * sizeof(uint32_t) > size) {
		buf->dtb_agg_hashmask = 0;
		buf->dtb_agg_hash = size;
		buf->dtb_agg_free = 0; /* nothing fits: every new key drops */
		return;
	}
	buf->dtb_agg_hashmask = (uint32_t)(nbuckets - 1);
	buf->dtb_agg_hash = size - nbuckets * sizeof(uint32_t);
	buf->dtb_agg_free = buf->dtb_agg_hash;
	memset(tomax + buf->dtb_agg_hash, 0, nbuckets * sizeof(uint32_t));
}
