/*
 * core/buffers/ledger.c: the consumer's private record of its buffers, and
 * the checks of shared buffer headers against it.
 *
 * Why (buffer_impl.h has the whole story): buffer headers live in memory
 * traced processes can write, so the core keeps where every buffer is and
 * how big in memory they cannot write, and believes a shared header only as
 * far as it agrees with that record.  The geometries and the speculations'
 * arrays are dtrace_port_zalloc memory, which probe context reads too (see
 * dtrace_buffer_reserve_checked); the rest is private.
 *
 * Who calls: dtrace_state_buffers() creates the ledger and fills it as it
 * allocates; the snapshots, STATUS, activation, the speculation cleaner and
 * dtrace_state_buffers_free() read it.  All of them with FRAMEWORK held,
 * except the cleaner timer, which is handed the ledger itself (so the list
 * here is never walked while another state's GO or close changes it).
 * Never in probe context.
 */
#include "../dtrace_impl.h"

/* Every ledger of this process's consumer states (FRAMEWORK held). */
static dtrace_ledger_t *dtrace_ledgers;

dtrace_ledger_t *
dtrace_ledger_create(dtrace_state_t *state, uint32_t ncpus, int nspec)
{
	size_t n = (size_t)nspec, geoms, size, shared;
	dtrace_ledger_t *l;
	char *p, *s;

	if (nspec < 0 || ncpus == 0)
		return NULL;
	/* (2 + nspec) * ncpus geometries and nspec pointers and marks, unwrapped */
	if (n > SIZE_MAX / 2 / sizeof(dtrace_bufgeom_t) / ncpus - 2)
		return NULL;
	geoms = (n + 2) * ncpus;
	shared = geoms * sizeof(dtrace_bufgeom_t);
	if (n > (SIZE_MAX - shared) / sizeof(dtrace_buffer_t *))
		return NULL;
	shared += n * sizeof(dtrace_buffer_t *);
	size = sizeof(*l) + n;

	if ((p = dtrace_port_zalloc_private(size)) == NULL)
		return NULL;
	if ((s = dtrace_port_zalloc(shared)) == NULL) {
		dtrace_port_free_private(p, size);
		return NULL;
	}
	l = (dtrace_ledger_t *)(void *)p;
	l->dl_state = state;
	l->dl_ncpus = ncpus;
	l->dl_nspec = nspec;
	l->dl_size = size;
	l->dl_cleaning = (uint8_t *)(p + sizeof(*l));
	/* geometries, then the pointers (both 8-aligned) */
	l->dl_shared_size = shared;
	l->dl_geom = (dtrace_bufgeom_t *)(void *)s;
	l->dl_specbuf = (dtrace_buffer_t **)(void *)(l->dl_geom + geoms);
	l->dl_next = dtrace_ledgers;
	dtrace_ledgers = l;
	return l;
}

void
dtrace_ledger_destroy(dtrace_ledger_t *l)
{
	dtrace_ledger_t **lp;

	if (l == NULL)
		return;
	for (lp = &dtrace_ledgers; *lp != NULL; lp = &(*lp)->dl_next) {
		if (*lp == l) {
			*lp = l->dl_next;
			break;
		}
	}
	dtrace_port_free(l->dl_geom, l->dl_shared_size);
	dtrace_port_free_private(l, l->dl_size);
}

dtrace_ledger_t *
dtrace_ledger_lookup(const dtrace_state_t *state)
{
	for (dtrace_ledger_t *l = dtrace_ledgers; l != NULL; l = l->dl_next) {
		if (l->dl_state == state)
			return l;
	}
	return NULL;
}

dtrace_buffer_t *
dtrace_state_bufarray(const dtrace_state_t *state, int which)
{
	dtrace_ledger_t *l = dtrace_ledger_lookup(state);

	if (l == NULL)
		return NULL;
	if (which == DTRACEOPT_BUFSIZE)
		return l->dl_buffer;
	return which == DTRACEOPT_AGGSIZE ? l->dl_aggbuffer : NULL;
}

bool
dtrace_bufgeom_check(const dtrace_bufgeom_t *g, dtrace_buffer_t *b)
{
	uint32_t policy = g->dbg_flags & DTRACEBUF_POLICY;
	uint64_t size = g->dbg_size;

	if (size == 0 || g->dbg_half[0] == NULL)
		return false;
	/* ring and fill buffers never switch; the others may be on either half */
	if (b->dtb_tomax == g->dbg_half[0])
		b->dtb_xamot = g->dbg_half[1];
	else if (g->dbg_half[1] != NULL && !(policy & (DTRACEBUF_RING | DTRACEBUF_FILL)) &&
		 b->dtb_tomax == g->dbg_half[1])
		b->dtb_xamot = g->dbg_half[0];
	else
		return false;

	if (b->dtb_offset > size || (b->dtb_offset & 3) != 0)
		return false;
	if (policy & (DTRACEBUF_RING | DTRACEBUF_FILL)) {
		/* the oldest record: within what a snapshot hands out */
		uint64_t limit = (b->dtb_flags & DTRACEBUF_WRAPPED) ? size : b->dtb_offset;

		if (b->dtb_xamot_offset > limit || (b->dtb_xamot_offset & 3) != 0)
			return false;
	}
	b->dtb_size = size;
	b->dtb_flags = (b->dtb_flags & ~(uint32_t)DTRACEBUF_POLICY) | policy;
	return true;
}

void
dtrace_bufgeom_repair(const dtrace_bufgeom_t *g, dtrace_buffer_t *buf)
{
	uint32_t inactive = buf->dtb_flags & DTRACEBUF_INACTIVE;

	buf->dtb_tomax = g->dbg_half[0];
	buf->dtb_xamot = g->dbg_half[1];
	buf->dtb_size = g->dbg_size;
	buf->dtb_offset = 0;
	buf->dtb_drops = 0;
	buf->dtb_errors = 0;
	buf->dtb_xamot_offset = 0;
	buf->dtb_xamot_errors = 0;
	buf->dtb_xamot_flags = 0;
	buf->dtb_flags = (g->dbg_flags & DTRACEBUF_POLICY) | inactive;
	if (g->dbg_flags & DTRACEBUF_AGGREGATION)
		dtrace_aggbuffer_reset(buf, g->dbg_half[0], g->dbg_size);
}
