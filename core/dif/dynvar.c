/*
 * core/dif/dynvar.c: the dynamic-variable store (thread-locals and global
 * associative arrays).  The design is described with the structures in
 * dif_impl.h; in short:
 *
 *   - one region per consumer, sized by the dynvarsize option at GO: a hash
 *     table of chains, then equal chunks, each CPU owning a share as its free
 *     list;
 *   - lookups and insertions are lock-free (insert = CAS at the chain head);
 *     a chain is walked until the shared sink, and a FREE chunk met on the
 *     way means the chain changed under us: walk again;
 *   - a free (assigning 0) takes the bucket's lock word (odd while held:
 *     only frees contend for it, and each holds it for one bounded walk),
 *     unlinks the chunk, marks it FREE and pushes it on the freeing CPU's
 *     dirty list; it is never reused before dtrace_dynvar_clean() has moved
 *     it through rinsing to clean with a cross-call in between, so no CPU
 *     can still be walking through it (and free-list pops have no ABA);
 *   - an allocation pops the CPU's free list, refills it from its clean
 *     list, and then tries the other CPUs' lists; when all are empty it
 *     drops, counting the cause (dirty chunks awaiting cleaning, cleaning in
 *     progress, or simply full) as DTrace reports them.
 *
 * dtrace_dynvar() runs in probe context; dtrace_dstate_init/fini and
 * dtrace_dynvar_clean() never do (FRAMEWORK held, or the state's cleaner
 * timer).
 */
#include "dif_internal.h"
#include "../dtrace_hash.h"

/* Every chain ends at the sink, never written after start-up; it lives
 * in dtrace_globals so that chains mean the same in every process that
 * fires probes (dtrace_attach). */
#define dynvar_sink (dtrace_globals->dg_dynvar_sink)

#define ROUND8(x) (((x) + 7) & ~(uint64_t)7)

/* Smallest chunk that holds a variable with two by-value keys and 8 bytes. */
#define DYNVAR_MINCHUNK ROUND8(sizeof(dtrace_dynvar_t) + sizeof(dtrace_key_t) + sizeof(uint64_t))

int
dtrace_dstate_init(dtrace_dstate_t *ds, size_t size)
{
	uint32_t ncpus = dtrace_port_ncpus();
	size_t chunksize = ds->dtds_chunksize, hashsize, nchunks, per, i;
	uintptr_t start;
	char *base;

	if (chunksize == 0)
		chunksize = DTRACE_DYNVAR_CHUNKSIZE;
	/* no variable needs more; and the sums below must not wrap */
	if (chunksize > (size_t)1 << 30)
		return DTRACE_ENOMEM;
	chunksize = ROUND8(chunksize);
	if (chunksize < DYNVAR_MINCHUNK)
		chunksize = DYNVAR_MINCHUNK;
	if (size < chunksize + sizeof(dtrace_dynhash_t))
		size = chunksize + sizeof(dtrace_dynhash_t);

	if ((base = dtrace_port_zalloc_probe(size)) == NULL)
		return DTRACE_ENOMEM;
	ds->dtds_percpu = dtrace_port_zalloc_probe(ncpus * sizeof(dtrace_dstate_percpu_t));
	if (ds->dtds_percpu == NULL) {
		dtrace_port_free_probe(base, size);
		return DTRACE_ENOMEM;
	}

	/*
	 * About one bucket per chunk, rounded down to a power of two so that a
	 * bucket is a mask, not a division, away from the hash.
	 */
	hashsize = size / (chunksize + sizeof(dtrace_dynhash_t));
	while (hashsize & (hashsize - 1))
		hashsize &= hashsize - 1;
	ds->dtds_base = base;
	ds->dtds_size = size;
	ds->dtds_chunksize = chunksize;
	ds->dtds_hashsize = hashsize;
	ds->dtds_hash = (dtrace_dynhash_t *)base;
	ds->dtds_ncpus = ncpus;
	ds->dtds_percpu[0].dtdsc_state = DTRACE_DSTATE_CLEAN;
	for (i = 0; i < hashsize; i++)
		ds->dtds_hash[i].dtdh_chain = &dynvar_sink;

	/*
	 * Deal the chunks out: each CPU gets an equal run, the last CPU the
	 * remainder; with fewer chunks than CPUs, CPU 0 holds them all and the
	 * others take from it when they need one.
	 */
	start = (uintptr_t)base + hashsize * sizeof(dtrace_dynhash_t);
	nchunks = ((uintptr_t)base + size - start) / chunksize;
	ds->dtds_nchunks = nchunks;
	per = nchunks / ncpus;
	for (uint32_t cpu = 0; cpu < ncpus && nchunks != 0; cpu++) {
		size_t first = per == 0 ? 0 : cpu * per;
		size_t count = per == 0 ? nchunks : cpu == ncpus - 1 ? nchunks - first : per;
		dtrace_dynvar_t *prev = NULL;

		for (size_t k = count; k-- > 0;) {
			dtrace_dynvar_t *dv = (dtrace_dynvar_t *)(start + (first + k) * chunksize);

			dv->dtdv_hashval = DTRACE_DYNHASH_FREE;
			dv->dtdv_next = prev;
			prev = dv;
		}
		ds->dtds_percpu[cpu].dtdsc_free = prev;
		if (per == 0)
			break;
	}
	return 0;
}

void
dtrace_dstate_fini(dtrace_dstate_t *ds)
{
	if (ds->dtds_base != NULL)
		dtrace_port_free_probe(ds->dtds_base, ds->dtds_size);
	if (ds->dtds_percpu != NULL)
		dtrace_port_free_probe(ds->dtds_percpu, ds->dtds_ncpus * sizeof(dtrace_dstate_percpu_t));
	ds->dtds_base = NULL;
	ds->dtds_percpu = NULL;
	ds->dtds_hash = NULL;
	ds->dtds_size = ds->dtds_hashsize = ds->dtds_nchunks = 0;
	ds->dtds_ncpus = 0;
}

/*
 * How many CPUs' lists the store has, as the consumer may believe it: never
 * more than the port has (the count sits in memory traced processes can
 * write).
 */
static uint32_t
dynvar_ncpus(const dtrace_dstate_t *ds)
{
	uint32_t n = ds->dtds_ncpus, max = dtrace_port_ncpus();

	return n < max ? n : max;
}

void
dtrace_dstate_drops(const dtrace_dstate_t *ds, uint64_t *drops, uint64_t *dirty,
		    uint64_t *rinsing)
{
	const dtrace_dstate_percpu_t *percpu = ds->dtds_percpu;
	uint32_t n = dynvar_ncpus(ds);

	*drops = *dirty = *rinsing = 0;
	for (uint32_t i = 0; i < n && percpu != NULL; i++) {
		*drops += percpu[i].dtdsc_drops;
		*dirty += percpu[i].dtdsc_dirty_drops;
		*rinsing += percpu[i].dtdsc_rinsing_drops;
	}
}

static void
dynvar_sync_nop(void *arg)
{
	(void)arg;
}

/* Every CPU has left any probe context it was in when this was called. */
static void
dynvar_sync(void)
{
	dtrace_port_xcall(DTRACE_CPU_ALL, dynvar_sync_nop, NULL);
}

/*
 * Where the chunks are, for checking the lists probe context built: the
 * first chunk, the chunk size and how many chunks follow.
 */
typedef struct dynvar_bounds {
	uintptr_t db_start;
	size_t db_chunksize;
	size_t db_nchunks;
} dynvar_bounds_t;

static void
dynvar_bounds(const dtrace_dstate_t *ds, dynvar_bounds_t *b)
{
	size_t size = ds->dtds_size, hash = ds->dtds_hashsize, chunksize = ds->dtds_chunksize;

	b->db_start = (uintptr_t)ds->dtds_base;
	b->db_chunksize = chunksize;
	b->db_nchunks = 0;
	if (ds->dtds_base == NULL || chunksize == 0 || hash > size / sizeof(dtrace_dynhash_t))
		return;
	b->db_start += hash * sizeof(dtrace_dynhash_t);
	b->db_nchunks = (size - hash * sizeof(dtrace_dynhash_t)) / chunksize;
}

static bool
dynvar_is_chunk(const dynvar_bounds_t *b, const dtrace_dynvar_t *dv)
{
	uintptr_t p = (uintptr_t)dv;

	return p >= b->db_start && (p - b->db_start) % b->db_chunksize == 0 &&
	       (p - b->db_start) / b->db_chunksize < b->db_nchunks;
}

/*
 * A list being rinsed is the cleaner's alone (no CPU takes from it, and
 * after the first cross-call none walks a chain through it): before it
 * becomes a clean list that probe context -- the consumer's own included --
 * will pop, follow it and cut it where it stops being a list of FREE chunks
 * of this store: a link to anything else, or more links than the store has
 * chunks (a cycle).  Each chunk is looked at once per trip through rinsing,
 * so the cost follows the frees probe context made.  Returns true when it
 * had to cut (the chunks after the cut are lost to the store until it is
 * made again).
 */
static bool
dynvar_rinse_check(const dynvar_bounds_t *b, dtrace_dynvar_t *volatile *headp)
{
	dtrace_dynvar_t *volatile *linkp = headp;
	dtrace_dynvar_t *dv;
	size_t n = 0;

	while ((dv = *linkp) != NULL) {
		if (n++ >= b->db_nchunks || !dynvar_is_chunk(b, dv) ||
		    dv->dtdv_hashval != DTRACE_DYNHASH_FREE) {
			*linkp = NULL;
			return true;
		}
		linkp = &dv->dtdv_next;
	}
	return false;
}

/* Tries at moving a CPU's dirty list aside before leaving it for next time. */
#define DYNVAR_CLEAN_TRIES 64

void
dtrace_dynvar_clean(dtrace_dstate_t *ds)
{
	dtrace_dstate_percpu_t *percpu = ds->dtds_percpu;
	uint32_t n = dynvar_ncpus(ds), i, j;
	dynvar_bounds_t bounds;
	bool work = false;

	if (percpu == NULL)
		return;
	dynvar_bounds(ds, &bounds);
	for (i = 0; i < n; i++) {
		dtrace_dstate_percpu_t *dcpu = &percpu[i];
		dtrace_dynvar_t *volatile *rinsep = &dcpu->dtdsc_rinsing;
		dtrace_dynvar_t *dirty;
		int tries = 0;

		if (dcpu->dtdsc_dirty == NULL)
			continue;
		if (dcpu->dtdsc_rinsing != NULL)
			continue; /* this CPU rinses another's list: next time */
		if (dcpu->dtdsc_clean != NULL) {
			/*
			 * The CPU frees but does not allocate: its clean list is
			 * still full, so its dirty list cannot go there.  Borrow
			 * an idle CPU (no clean, dirty or rinsing list) to rinse
			 * it, so a long dirty list does not wait behind a short
			 * clean one.
			 */
			for (j = 0; j < n; j++) {
				dtrace_dstate_percpu_t *r = &percpu[j];
				if (r->dtdsc_rinsing == NULL && r->dtdsc_dirty == NULL &&
				    r->dtdsc_clean == NULL)
					break;
			}
			if (j == n)
				continue; /* nowhere to put it now */
			rinsep = &percpu[j].dtdsc_rinsing;
		}
		/*
		 * Move the dirty list aside; rinsing is set before dirty clears.
		 * The loop retries only when the CPU freed meanwhile; bounded,
		 * so that a word changed without end cannot hold the cleaner.
		 */
		do {
			dirty = dcpu->dtdsc_dirty;
			*rinsep = dirty;
			dtrace_membar_producer();
		} while (dtrace_casptr((void *volatile *)&dcpu->dtdsc_dirty, dirty, NULL) != dirty &&
			 ++tries < DYNVAR_CLEAN_TRIES);
		if (tries == DYNVAR_CLEAN_TRIES) {
			*rinsep = NULL;
			continue;
		}
		work = true;
	}
	if (!work)
		return;

	/* After this, no CPU can be walking a chain through a rinsing chunk. */
	dynvar_sync();
	for (i = 0; i < n; i++) {
		dtrace_dstate_percpu_t *dcpu = &percpu[i];

		if (dcpu->dtdsc_rinsing == NULL)
			continue;
		/* A list a traced process broke: cut it, and count a drop. */
		if (dynvar_rinse_check(&bounds, &dcpu->dtdsc_rinsing))
			dtrace_add64(&dcpu->dtdsc_drops, 1);
		dcpu->dtdsc_clean = dcpu->dtdsc_rinsing;
		dcpu->dtdsc_rinsing = NULL;
	}
	/* Every CPU sees the clean lists before the state says CLEAN. */
	dynvar_sync();
	ds->dtds_percpu[0].dtdsc_state = DTRACE_DSTATE_CLEAN;
}

/* --- Probe context ------------------------------------------------------------------ */

/* One step of the tuple hash: a multiply-xorshift mixer per key word. */
static inline uint64_t
dynvar_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 31);
}

/*
 * Hash of the key tuple; DTRACE_DYNHASH_VALID or more.  By-value keys are
 * mixed in directly; by-reference key bytes are hashed with xxHash, read
 * (and access-checked) in D memory.  Returns 0 on a fault.
 */
static uint64_t
dynvar_hash(const dtrace_key_t *key, uint32_t nkeys, dtrace_mstate_t *mstate,
	    const dtrace_vstate_t *vs)
{
	uint64_t h = nkeys;

	for (uint32_t i = 0; i < nkeys; i++) {
		uint64_t size = key[i].dttk_size, w;
		uintptr_t p = key[i].dttk_value;
		dtrace_hash_state_t st;
		char chunk[64];

		if (size == 0) {
			h = dynvar_mix(h, key[i].dttk_value);
			continue;
		}
		if (!dtrace_dif_canload(p, size, mstate, vs))
			return 0;
		if (dtrace_dif_direct(mstate, p) >= size) {
			w = dtrace_hash64((const void *)p, size, size);
		} else {
			dtrace_hash_init(&st, size);
			for (uint64_t off = 0; off < size; off += sizeof(chunk)) {
				size_t n = size - off < sizeof(chunk) ? size - off : sizeof(chunk);

				if (!dtrace_dif_copy(mstate, DTRACE_AS_KERNEL, p + off, chunk, n))
					return 0;
				dtrace_hash_update(&st, chunk, n);
			}
			w = dtrace_hash_final(&st);
		}
		h = dynvar_mix(h, w ^ size);
	}
	h = dynvar_mix(h, h >> 17);
	if (h < DTRACE_DYNHASH_VALID)
		h = DTRACE_DYNHASH_VALID;
	return h;
}

/*
 * Probe context follows what it reads in the store, and a traced process
 * can write the store: a pointer read there is believed only when it is
 * the sink or points at a whole chunk of this store (checked arithmetic on
 * the store's bounds, which are in memory probe context cannot write).  A
 * pointer that is not is corruption, counted as a drop.
 */
static bool
dynvar_chunk_ok(const dtrace_dstate_t *ds, const dtrace_dynvar_t *dv)
{
	uintptr_t p = (uintptr_t)dv, start, end;

	if (dv == &dynvar_sink)
		return true;
	start = (uintptr_t)ds->dtds_base + ds->dtds_hashsize * sizeof(dtrace_dynhash_t);
	end = (uintptr_t)ds->dtds_base + ds->dtds_size;
	return (p & 7) == 0 && p >= start && p <= end && end - p >= ds->dtds_chunksize;
}

/* The store is corrupt: count it as this CPU's drop and drop the record. */
static void
dynvar_corrupt(dtrace_dstate_t *ds, dtrace_cpuid_t me)
{
	dtrace_add64(&ds->dtds_percpu[me].dtdsc_drops, 1);
	dtrace_cpu_core[me].cpuc_flags |= DTRACE_CPUF_DROP;
}

void
dtrace_dynvar_drop(dtrace_dstate_t *ds, dtrace_mstate_t *mstate)
{
	if (ds->dtds_percpu != NULL && mstate->dtms_cpu < ds->dtds_ncpus)
		dynvar_corrupt(ds, mstate->dtms_cpu);
}

void *
dtrace_dynvar_data(const dtrace_dstate_t *ds, const dtrace_dynvar_t *dv, size_t dsize)
{
	uintptr_t data = (uintptr_t)dv->dtdv_data, p = (uintptr_t)dv;

	/* inside its own chunk, after the header, with room for the value */
	if (data < (uintptr_t)&dv->dtdv_tuple || data - p > ds->dtds_chunksize ||
	    dsize > ds->dtds_chunksize - (data - p))
		return NULL;
	return (void *)data;
}

static bool
dynvar_match(const dtrace_dstate_t *ds, const dtrace_dynvar_t *dv, const dtrace_key_t *key,
	     uint32_t nkeys, dtrace_mstate_t *mstate)
{
	const dtrace_key_t *dk = dv->dtdv_tuple.dtt_key;
	uintptr_t p = (uintptr_t)dv;

	if (dv->dtdv_tuple.dtt_nkeys != nkeys ||
	    (uintptr_t)&dk[nkeys] - p > ds->dtds_chunksize)
		return false;
	for (uint32_t i = 0; i < nkeys; i++) {
		uint64_t v = dk[i].dttk_value, size = key[i].dttk_size;

		if (dk[i].dttk_size != size)
			return false; /* size or by-value/by-reference mismatch */
		if (size == 0) {
			if (v != key[i].dttk_value)
				return false;
			continue;
		}
		/* by-reference key bytes: inside this chunk, or no match */
		if (v < p || v - p > ds->dtds_chunksize || size > ds->dtds_chunksize - (v - p))
			return false;
		if (dtrace_dif_bcmp(mstate, key[i].dttk_value, (const void *)(uintptr_t)v,
				    (size_t)size) != 0)
			return false;
	}
	return true;
}

/* Tries at a CAS another CPU (or a traced process) keeps winning, and at
 * the bucket lock, before probe context gives up with a drop. */
#define DYNVAR_TRIES 64
#define DYNVAR_LOCK_SPINS (1u << 20)

/* Push a freed chunk on a dirty list; a chunk that cannot be pushed (the
 * head kept changing) is lost to the store until it is made again. */
static void
dynvar_push_dirty(dtrace_dstate_percpu_t *dcpu, dtrace_dynvar_t *dv)
{
	dtrace_dynvar_t *head;
	int tries = 0;

	do {
		if (tries++ == DYNVAR_TRIES)
			return;
		head = dcpu->dtdsc_dirty;
		dv->dtdv_next = head;
	} while (dtrace_casptr((void *volatile *)&dcpu->dtdsc_dirty, head, dv) != head);
}

/* Pop a free chunk for CPU `me`, or NULL (the drop counted) when none. */
static dtrace_dynvar_t *
dynvar_take(dtrace_dstate_t *ds, dtrace_cpuid_t me, dtrace_mstate_t *mstate)
{
	dtrace_dstate_percpu_t *mine = &ds->dtds_percpu[me], *dcpu = mine;
	uint32_t cpu = me, nstate = DTRACE_DSTATE_EMPTY;
	dtrace_dynvar_t *free, *clean;
	/* a lap of the CPUs per state change, and the CAS retries */
	uint64_t tries = 0, maxtries = 4 * (uint64_t)ds->dtds_ncpus + DYNVAR_TRIES;

	for (;;) {
		if (tries++ == maxtries) {
			dynvar_corrupt(ds, me);
			return NULL;
		}
		free = dcpu->dtdsc_free;
		if (free != NULL) {
			if (free == &dynvar_sink || !dynvar_chunk_ok(ds, free)) {
				/* a list a traced process broke: cut it */
				(void)dtrace_casptr((void *volatile *)&dcpu->dtdsc_free, free, NULL);
				dynvar_corrupt(ds, me);
				return NULL;
			}
			if (dtrace_casptr((void *volatile *)&dcpu->dtdsc_free, free,
					  free->dtdv_next) == free)
				return free;
			continue;
		}
		clean = dcpu->dtdsc_clean;
		if (clean != NULL) {
			/* Claim the (possibly another CPU's) clean list as our free list. */
			if (dtrace_casptr((void *volatile *)&dcpu->dtdsc_clean, clean, NULL) != clean)
				continue;
			dcpu = mine;
			if (dtrace_casptr((void *volatile *)&mine->dtdsc_free, NULL, clean) != NULL) {
				/* Our free list refilled meanwhile: keep the list on dirty
				 * (as far as it is a list of this store's chunks). */
				for (size_t n = 0; clean != NULL && n < ds->dtds_nchunks; n++) {
					dtrace_dynvar_t *next;

					if (clean == &dynvar_sink || !dynvar_chunk_ok(ds, clean))
						break;
					next = clean->dtdv_next;
					dynvar_push_dirty(mine, clean);
					clean = next;
				}
			}
			continue;
		}
		switch (ds->dtds_percpu[0].dtdsc_state) {
		case DTRACE_DSTATE_CLEAN:
			/* Note why this CPU is empty, then try the next CPU. */
			if (dcpu->dtdsc_dirty != NULL && nstate == DTRACE_DSTATE_EMPTY)
				nstate = DTRACE_DSTATE_DIRTY;
			if (dcpu->dtdsc_rinsing != NULL)
				nstate = DTRACE_DSTATE_RINSING;
			if (++cpu >= ds->dtds_ncpus)
				cpu = 0;
			dcpu = &ds->dtds_percpu[cpu];
			if (cpu != me)
				continue;
			/* A whole lap found nothing: record why, and count it below. */
			dtrace_cas32(&ds->dtds_percpu[0].dtdsc_state, DTRACE_DSTATE_CLEAN, nstate);
			continue;
		case DTRACE_DSTATE_DIRTY:
			dtrace_add64(&mine->dtdsc_dirty_drops, 1);
			break;
		case DTRACE_DSTATE_RINSING:
			dtrace_add64(&mine->dtdsc_rinsing_drops, 1);
			break;
		default:
			dtrace_add64(&mine->dtdsc_drops, 1);
			break;
		}
		/* Not a fault: the ECB's record is dropped, the program goes on. */
		dtrace_cpu_core[me].cpuc_flags |= DTRACE_CPUF_DROP;
		(void)mstate;
		return NULL;
	}
}

dtrace_dynvar_t *
dtrace_dynvar(dtrace_dstate_t *ds, uint32_t nkeys, const dtrace_key_t *key, size_t dsize,
	      dtrace_dynvar_op_t op, dtrace_mstate_t *mstate, dtrace_vstate_t *vs)
{
	dtrace_cpuid_t me = mstate->dtms_cpu;
	dtrace_dynhash_t *hash = ds->dtds_hash;
	dtrace_dynvar_t *dv, *start, *prev;
	uint64_t hashval, ksize;
	uintptr_t lock, kdata;
	size_t bucket, steps;
	int tries = 0;

	if (ds->dtds_base == NULL || nkeys == 0 || nkeys > DIF_DTR_NREGS + 2)
		return NULL; /* no store (never started) */
	if ((hashval = dynvar_hash(key, nkeys, mstate, vs)) == 0)
		return NULL;
	bucket = hashval & (ds->dtds_hashsize - 1);

	if (op == DTRACE_DYNVAR_DEALLOC) {
		volatile uintptr_t *lockp = &hash[bucket].dtdh_lock;

		/* Only frees take this; each holds it for one bounded walk (a
		 * lock word a traced process left odd is given up on). */
		for (uint32_t spins = 0;; spins++) {
			if (spins == DYNVAR_LOCK_SPINS) {
				dynvar_corrupt(ds, me);
				return NULL;
			}
			if ((lock = *lockp) & 1)
				continue;
			if (dtrace_casptr((void *volatile *)lockp, (void *)lock,
					  (void *)(lock + 1)) == (void *)lock)
				break;
		}
		dtrace_membar_producer();
	}

again:
	for (;;) {
		if (tries++ == DYNVAR_TRIES) {
			dynvar_corrupt(ds, me);
			goto unlock_out;
		}
		prev = NULL;
		lock = hash[bucket].dtdh_lock;
		dtrace_membar_consumer();
		start = hash[bucket].dtdh_chain;

		/* No chain is longer than the store has chunks. */
		for (dv = start, steps = 0;; dv = dv->dtdv_next, steps++) {
			if (!dynvar_chunk_ok(ds, dv) || steps > ds->dtds_nchunks) {
				dynvar_corrupt(ds, me);
				goto unlock_out;
			}
			if (dv->dtdv_hashval == DTRACE_DYNHASH_SINK)
				break;
			if (dv->dtdv_hashval == DTRACE_DYNHASH_FREE)
				break; /* the chain changed under us: walk again */
			if (dv->dtdv_hashval == hashval && dynvar_match(ds, dv, key, nkeys, mstate))
				break;
			if (dtrace_dif_faulted(mstate))
				goto unlock_out;
			prev = dv;
		}
		if (dv->dtdv_hashval == DTRACE_DYNHASH_FREE)
			continue;
		break;
	}

	if (dv->dtdv_hashval != DTRACE_DYNHASH_SINK) {
		/* Found. */
		if (op != DTRACE_DYNVAR_DEALLOC)
			return dv;
		if (prev != NULL) {
			prev->dtdv_next = dv->dtdv_next;
		} else if (dtrace_casptr((void *volatile *)&hash[bucket].dtdh_chain, start,
					 dv->dtdv_next) != start) {
			goto again; /* an insertion at the head raced us */
		}
		dtrace_membar_producer();
		dv->dtdv_hashval = DTRACE_DYNHASH_FREE;
		dtrace_membar_producer();
		dynvar_push_dirty(&ds->dtds_percpu[me], dv);
		goto unlock_out;
	}

	/* Not found. */
	if (op == DTRACE_DYNVAR_NOALLOC) {
		if (hash[bucket].dtdh_lock != lock)
			goto again; /* a free ran during the walk: look again */
		return NULL;
	}
	if (op == DTRACE_DYNVAR_DEALLOC)
		goto unlock_out;

	/* Allocate: header, the key tuple, by-reference key bytes, the data. */
	ksize = 0;
	for (uint32_t i = 0; i < nkeys; i++)
		ksize += ROUND8(key[i].dttk_size);
	if (sizeof(dtrace_dynvar_t) + sizeof(dtrace_key_t) * (nkeys - 1) + ksize + dsize >
	    ds->dtds_chunksize) {
		/* The chunk size was computed too small for this DIF. */
		dtrace_add64(&ds->dtds_percpu[me].dtdsc_drops, 1);
		return NULL;
	}
	if ((dv = dynvar_take(ds, me, mstate)) == NULL)
		return NULL;

	kdata = (uintptr_t)&dv->dtdv_tuple.dtt_key[nkeys];
	dv->dtdv_data = (void *)(kdata + ksize);
	dv->dtdv_tuple.dtt_nkeys = nkeys;
	for (uint32_t i = 0; i < nkeys; i++) {
		dtrace_key_t *dk = &dv->dtdv_tuple.dtt_key[i];

		dk->dttk_size = key[i].dttk_size;
		if (key[i].dttk_size == 0) {
			dk->dttk_value = key[i].dttk_value;
			continue;
		}
		dtrace_dif_copy(mstate, DTRACE_AS_KERNEL, key[i].dttk_value, (void *)kdata,
				key[i].dttk_size);
		dk->dttk_value = kdata;
		kdata += ROUND8(key[i].dttk_size);
	}
	memset(dv->dtdv_data, 0, dsize);
	if (dtrace_dif_faulted(mstate)) {
		dv->dtdv_hashval = DTRACE_DYNHASH_FREE;
		dynvar_push_dirty(&ds->dtds_percpu[me], dv);
		return NULL;
	}
	dv->dtdv_hashval = hashval;
	dv->dtdv_next = start;
	dtrace_membar_producer();
	if (dtrace_casptr((void *volatile *)&hash[bucket].dtdh_chain, start, dv) == start)
		return dv;

	/*
	 * Another CPU changed the chain head (insert or free).  The chunk goes
	 * to dirty, not back to free (a racing allocator may have seen it), and
	 * we start over: the variable may now exist.
	 */
	dv->dtdv_hashval = DTRACE_DYNHASH_FREE;
	dtrace_membar_producer();
	dynvar_push_dirty(&ds->dtds_percpu[me], dv);
	goto again;

unlock_out:
	if (op == DTRACE_DYNVAR_DEALLOC) {
		/* We hold it: nobody else writes the lock word until this store. */
		dtrace_membar_producer();
		hash[bucket].dtdh_lock = hash[bucket].dtdh_lock + 1;
	}
	return NULL;
}
