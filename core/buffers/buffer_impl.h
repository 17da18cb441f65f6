/*
 * core/buffers/buffer_impl.h: per-CPU principal, aggregation and
 * speculation buffers.
 *
 * Owner: core/buffers/.  Callers: the ECB walker in probe context (reserve,
 * aggregate, speculate, commit, discard), the control operations outside it
 * (GO allocates, BUFSNAP/AGGSNAP snapshot, STATUS counts, AGGDESC
 * describes), and the state's cleaner timer (speculation cleaning).
 *
 * Each CPU has an active buffer (dtb_tomax) that only that CPU writes, in
 * probe context, and an inactive one (dtb_xamot).  Under the switch policy a
 * cross-call on the CPU swaps the two and the consumer reads the inactive
 * one.  Ring and fill buffers are never swapped: their inactive half is the
 * probe's scratch space, and the consumer reads them once the state has
 * stopped.  Aggregation buffers are swapped like switch buffers.
 * Speculation buffers have no inactive half (DTRACEBUF_NOSWITCH).
 *
 * A CPU in probe context is exclusive (see ARCHITECTURE.md), so a buffer's
 * fields need no atomics: they are written by the owning CPU in probe context
 * or by a cross-call running on that CPU.  Only a speculation's state word is
 * shared between CPUs; it changes by compare-and-swap.
 */
#ifndef DTRACE_CORE_BUFFER_IMPL_H
#define DTRACE_CORE_BUFFER_IMPL_H

#include "../dtrace_abi.h"
#include "../port.h"

/*
 * The four libc functions every kernel provides (port.h).  Declared here
 * because the core includes no libc header; compatible repetitions of these
 * declarations elsewhere in the core are harmless.
 */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

struct dtrace_state;
struct dtrace_mstate;
struct dtrace_action;
struct dtrace_ecb;
struct dtrace_bufgeom;

#define DTRACEBUF_RING 0x0001	     /* ring policy */
#define DTRACEBUF_FILL 0x0002	     /* fill policy */
#define DTRACEBUF_NOSWITCH 0x0004    /* no inactive half (speculation buffers) */
#define DTRACEBUF_WRAPPED 0x0008     /* ring has wrapped */
#define DTRACEBUF_DROPPED 0x0010     /* a drop happened */
#define DTRACEBUF_FULL 0x0020	     /* fill policy: buffer full */
#define DTRACEBUF_CONSUMED 0x0040    /* ring/fill: snapshot taken after stop */
#define DTRACEBUF_INACTIVE 0x0080    /* principal buffer before GO activates it */
#define DTRACEBUF_AGGREGATION 0x0100 /* aggregation buffer: keeps a key index */

typedef struct dtrace_buffer {
	uint64_t dtb_offset;	     /* next free byte in dtb_tomax */
	uint64_t dtb_size;	     /* bytes in each of tomax and xamot */
	uint32_t dtb_flags;	     /* DTRACEBUF_* */
	uint64_t dtb_drops;	     /* records dropped since last swap */
	char *dtb_tomax;	     /* active: written in probe context */
	char *dtb_xamot;	     /* inactive: read by the consumer */
	uint32_t dtb_xamot_flags;
	uint64_t dtb_xamot_drops;    /* speculation buffers: drops of committed data */
	uint64_t dtb_xamot_offset;   /* ring: offset of the oldest record */
	uint32_t dtb_errors;	     /* ERROR records that could not be written */
	uint32_t dtb_xamot_errors;
	uint64_t dtb_switched;	     /* gethrtime of the last swap */
	uint64_t dtb_interval;	     /* ns between the last two swaps */
	/*
	 * Aggregation buffers only: the key index of the active half, which
	 * lives at the top of dtb_tomax (see aggregation.c).  Reset whenever
	 * the halves are swapped.
	 */
	uint64_t dtb_agg_hash;	     /* offset of the bucket array */
	uint64_t dtb_agg_free;	     /* offset of the lowest key entry */
	uint32_t dtb_agg_hashmask;   /* buckets - 1 (a power of two) */
	uint32_t dtb_agg_nkeys;	     /* key entries in use */
} dtrace_buffer_t;

/* ------------------------------------------------------------------------
 * Principal buffers (buffer.c)
 * ------------------------------------------------------------------------
 */

/*
 * Allocate both halves (one for NOSWITCH) of `size` bytes for every CPU, or
 * only for `cpu` unless it is DTRACE_CPU_ALL, in the per-CPU array `bufs`,
 * writing each CPU's geometry into `geom` (the array's per-CPU entries in
 * the state's ledger).  All or nothing: on ENOMEM everything allocated here
 * is freed and *factor says how far short the allocation fell (halves
 * wanted / halves obtained), which the caller uses to shrink the next try.
 * EINVAL: no such CPU.  probe context: no.
 */
int dtrace_buffer_alloc(dtrace_buffer_t *bufs, struct dtrace_bufgeom *geom, size_t size,
			uint32_t flags, dtrace_cpuid_t cpu, int *factor);
/* Free every CPU's halves as `geom` records them (the arrays stay); the
 * shared headers are cleared, never believed.  probe context: no. */
void dtrace_buffer_free(dtrace_buffer_t *bufs, struct dtrace_bufgeom *geom);

/*
 * Allocate one kind of buffer for the state by option `which`
 * (DTRACEOPT_BUFSIZE, AGGSIZE or SPECSIZE): unset or 0 allocates nothing.
 * The size is rounded down to 8 bytes; a size below dts_reserve fails with
 * E2BIG.  On ENOMEM with bufresize=auto the size shrinks (halved, or more
 * when the allocation fell further short) until it fits or drops below 8
 * bytes; with bufresize=manual ENOMEM is returned at once.  The size that
 * fit is written back to the option.  probe context: no.
 */
int dtrace_state_buffer(struct dtrace_state *state, dtrace_buffer_t *bufs,
			struct dtrace_bufgeom *geom, int which);

/*
 * All of GO's buffer work, after fw has applied DTrace's option rules
 * (AGGSIZE 0 without aggregations, SPECSIZE 0 without speculate(), the
 * ENOSPC minimum checks) and set dts_reserve: creates the state's ledger,
 * allocates the per-CPU arrays dts_buffer and dts_aggbuffer, nspec
 * speculations (dts_speculations, dts_nspeculations) with their per-CPU
 * arrays, then the principal, aggregation and speculation buffers, each
 * written down in the ledger.  Principal buffers start DTRACEBUF_INACTIVE.
 * On failure everything is freed again.  Returns 0, ENOMEM, E2BIG (the
 * reserve does not fit), EINVAL (bad cpu option) or EBUSY (the state has
 * buffers already).  probe context: no.
 */
int dtrace_state_buffers(struct dtrace_state *state);
/* Free every buffer, the speculations and the per-CPU arrays of the state
 * as its ledger records them, and the ledger; no probe may still be using
 * them (after dtrace_sync).  probe context: no. */
void dtrace_state_buffers_free(struct dtrace_state *state);

/*
 * Reserve `needed` bytes aligned to `align` (a power of two, at least 4) in
 * the CPU's active buffer under its policy, padding with DTRACE_EPIDNONE
 * words.  Returns the offset of the reserved space in dtb_tomax, or -1:
 * the buffer is inactive (not counted), a fill buffer is full (not
 * counted: DTRACEBUF_FULL is set and the consumer stops; END and ERROR
 * still record into the reserve while the state is in COOLDOWN), or there is
 * no room (counted in dtb_drops).  The caller writes its record and then
 * commits it by setting dtb_offset = offset + size; a reservation left
 * uncommitted costs nothing.  When `mstate` is not NULL its scratch area is
 * set: the rest of the buffer (switch policy) or the inactive half (ring and
 * fill).  Ring buffers may overwrite the oldest records: dtb_xamot_offset
 * follows the oldest record still whole, using state->dts_ecbs[epid -
 * 1]->dte_size to step over records.  probe context: yes.
 */
intptr_t dtrace_buffer_reserve(dtrace_buffer_t *buf, size_t needed, size_t align,
			       struct dtrace_state *state, struct dtrace_mstate *mstate);

/*
 * dtrace_buffer_reserve() for probe context on a header in shared memory
 * (the state's, found through dtrace_state_geom()): the header is read
 * once into `view` and checked against `g` (dtrace_bufgeom_check: the
 * active half one the core allocated, the offsets within it), the
 * reservation made on that copy, and what it changed stored back.  The
 * caller writes its record through view->dtb_tomax, never through the
 * shared header, which a traced process may rewrite at any time; at worst
 * the records land in another of the buffers, which are all theirs to
 * write anyway.  A header that fails the check is a drop (the consumer's
 * next snapshot repairs it).  `g` NULL (a state a test built) is a plain
 * dtrace_buffer_reserve() on `buf`, *view a copy of it afterwards.
 * probe context: yes.
 */
struct dtrace_bufgeom;
intptr_t dtrace_buffer_reserve_checked(dtrace_buffer_t *buf, const struct dtrace_bufgeom *g,
				       size_t needed, size_t align, struct dtrace_state *state,
				       struct dtrace_mstate *mstate, dtrace_buffer_t *view);

/* Count a record dropped for want of room.  probe context: yes. */
static inline void
dtrace_buffer_drop(dtrace_buffer_t *buf)
{
	buf->dtb_drops++;
}

/* Clear DTRACEBUF_INACTIVE on every CPU's principal buffer, each by a
 * cross-call on its CPU (GO, after BEGIN).  probe context: no. */
void dtrace_buffer_activate(struct dtrace_state *state);
/* The same for the calling CPU only, with the CPU exclusive (GO, before it
 * fires BEGIN there).  probe context: no. */
void dtrace_buffer_activate_cpu(struct dtrace_state *state, dtrace_cpuid_t cpu);

/*
 * DTRACE_CTL_BUFSNAP and DTRACE_CTL_AGGSNAP, with the framework lock held:
 * `bufs` is the state's principal or aggregation array as its ledger has
 * it (dtrace_state_bufarray), desc->dtbd_cpu names the CPU.  As in DTrace, dtbd_data must have room for a whole buffer (the
 * size option's value as GO settled it), and a dtbd_size of 0 on entry means
 * just that.  A non-zero dtbd_size is taken as the room (DTrace ignores it
 * and would copy past it): a ring or fill buffer whose data exceeds it, or a
 * switch buffer whose size exceeds it (its data is only known after the
 * switch), fails with ENOSPC and nothing is consumed or switched.  Switch and
 * aggregation buffers are switched by a cross-call and the inactive half is
 * copied; ring and fill buffers are copied whole once the state has
 * stopped (EBUSY before), and later snapshots return nothing.  Fills size,
 * drops, errors, oldest and timestamp exactly as DTrace: for a switched
 * buffer timestamp is the time of the switch and oldest is 0; for a ring,
 * oldest is the offset of the oldest record.  Errors of a switched buffer are
 * added to state->dts_errors.
 *
 * Switch and aggregation buffers are switched by
 * a cross-call that reads the CPU's header once, checks it against the
 * ledger and swaps in the other half the ledger knows; what is copied out
 * is the half and the length that check accepted, never more than the
 * buffer.  A header that fails the check (an active half the core never
 * allocated, an offset past the end or off the 4-byte grid, a ring's oldest
 * offset beyond its data) is corrupt: the buffer is repaired to an empty one
 * and DTRACE_EBADMSG returned, nothing copied.  Returns 0, EINVAL (no such
 * CPU or not the state's array), ENOENT (no buffer on that CPU), EBUSY,
 * ENOSPC or EBADMSG.  probe context: no.
 */
int dtrace_buffer_snapshot(struct dtrace_state *state, dtrace_buffer_t *bufs,
			   dtrace_bufdesc_t *desc);
/*
 * The same, with the data written through copyout(ctx, src, dst, len) to the
 * address dtbd_data names (the consumer's user address when a kernel's ioctl
 * marshaller calls it): no bounce buffer, the data goes out from the buffer
 * itself while FRAMEWORK is held, as DTrace copies it out under dtrace_lock.
 * copyout returns 0 or non-zero for a fault, which fails the snapshot with
 * EFAULT; a ring or fill buffer is then not marked consumed.
 */
typedef int (*dtrace_buffer_copyout_t)(void *ctx, const void *src, uintptr_t dst, size_t len);
int dtrace_buffer_snapshot_copy(struct dtrace_state *state, dtrace_buffer_t *bufs,
				dtrace_bufdesc_t *desc, dtrace_buffer_copyout_t copyout, void *ctx);

/*
 * DTRACE_CTL_STATUS, the buffers' part: counts fill buffers that filled
 * (dtst_filled), adds every CPU's dtb_errors to dtst_errors, and sets
 * dtst_specdrops (drops in committed speculations), dtst_specdrops_busy and
 * dtst_specdrops_unavail.  fw fills the rest.  probe context: no.
 */
void dtrace_buffer_status(struct dtrace_state *state, dtrace_status_t *st);

/* ------------------------------------------------------------------------
 * Aggregations (aggregation.c)
 * ------------------------------------------------------------------------
 *
 * An aggregation is one aggregating action of an ECB (shared by every ECB
 * that shares the action list) with its key tuple: the actions from
 * dtag_first up to the aggregating action, marked dta_intuple.  When the
 * ECB fires, the tuple actions record into the principal (scratch) space the
 * ECB reserved, from dtag_base on; dtrace_aggregate() then looks the tuple up
 * in the CPU's aggregation buffer and applies the function.
 *
 * An entry in the aggregation buffer is exactly what the consumer reads
 * (AGGSNAP), DTrace's layout: the key -- the aggregation
 * id in the first 4 bytes, then the tuple records at their offsets relative
 * to dtag_base, strings zero-padded after their NUL, gaps zeroed -- followed
 * by the value record.  Entries follow each other without gaps (every key
 * and value size is a multiple of 8).  Values:
 *   count, sum, min, max   1 x int64
 *   avg                    count, sum
 *   stddev                 count, sum, sum of squares as 128 bits (low, high)
 *   quantize               DTRACE_QUANTIZE_NBUCKETS counts
 *   lquantize              the packed argument, then levels + 2 counts
 *                          (underflow, levels, overflow)
 *   llquantize             the packed argument, then the buckets
 * Keys equal in their tuple bytes share an entry even across aggregation
 * ids (two clauses feeding one @var), as in DTrace; the entry keeps the id
 * of the first.  clear() and trunc() are consumer-side in DTrace (libdtrace
 * acts on its own copy when it processes the DTRACEACT_LIBACT record): the
 * core has nothing to do for them, because each AGGSNAP swaps in an empty
 * buffer and the consumer accumulates.
 */

/*
 * dtrace_aggregation_t is defined with the actions in dtrace_impl.h (it
 * begins with its aggregating action, as in DTrace); fw's ECB code creates
 * it, sets the value record size, dtag_initial and dtag_hasarg, and
 * dtrace_ecb_resize() sets dtag_base.  This file only needs its name.
 */
typedef struct dtrace_aggregation dtrace_aggregation_t;

/*
 * Give an aggregation buffer's active half, `tomax` of `size` bytes, an
 * empty key index (at allocation, by every switch and by a repair, with the
 * CPU exclusive; the caller passes the geometry it trusts).  probe context:
 * no.
 */
void dtrace_aggbuffer_reset(dtrace_buffer_t *buf, char *tomax, uint64_t size);

/*
 * Aggregate: the key tuple was recorded at dbuf->dtb_tomax + offset +
 * agg->dtag_base (the ECB's reserved space); apply the function to `expr`
 * (the aggregating action's value) with `arg` (the previous action's value,
 * used as increment when dtag_hasarg, else 1) in `buf`, the CPU's
 * aggregation buffer.  A new key that does not fit is counted in
 * buf->dtb_drops.  Returns 0, or DTRACE_CPUF_ILLOP when the key already
 * holds a value of another aggregating function (errant DIF): the caller
 * ORs it into its CPU's cpuc_flags.  probe context: yes.
 */
uint32_t dtrace_aggregate(dtrace_aggregation_t *agg, dtrace_buffer_t *dbuf, intptr_t offset,
			  dtrace_buffer_t *buf, uint64_t expr, uint64_t arg);

/*
 * dtrace_aggregate() in probe context on the state's shared header `buf`
 * (`dbuf` the principal buffer's checked view): the header is read once,
 * checked against its geometry `g` (dtrace_bufgeom_check) and its key index
 * for consistency, the aggregation done on the copy and what changed
 * stored back.  A corrupt header or key entry is an aggregation drop.  `g`
 * NULL (a state a test built): dtrace_aggregate() on `buf` itself.
 * probe context: yes.
 */
uint32_t dtrace_aggregate_checked(dtrace_aggregation_t *agg, dtrace_buffer_t *dbuf,
				  intptr_t offset, dtrace_buffer_t *buf,
				  const struct dtrace_bufgeom *g, uint64_t expr, uint64_t arg);

/*
 * DTRACE_CTL_AGGDESC for one aggregation: in desc->dtagd_nrecs the room
 * (records the caller's structure holds, at least 1); out: dtagd_epid,
 * dtagd_size (key + value bytes), dtagd_nrecs (every record with a size:
 * tuple members and the value, offsets relative to dtag_base) and as many
 * records as fit.  dtagd_id, name, varid and flags are left as given.
 * probe context: no.
 */
void dtrace_aggregation_desc(const dtrace_aggregation_t *agg, dtrace_aggdesc_t *desc);

/* The aggregating functions, for tests and for anyone reducing values the
 * way the core does (value points at the value record). */
void dtrace_aggregate_count(uint64_t *value, uint64_t nval, uint64_t arg);
void dtrace_aggregate_sum(uint64_t *value, uint64_t nval, uint64_t arg);
void dtrace_aggregate_min(uint64_t *value, uint64_t nval, uint64_t arg);
void dtrace_aggregate_max(uint64_t *value, uint64_t nval, uint64_t arg);
void dtrace_aggregate_avg(uint64_t *value, uint64_t nval, uint64_t arg);
void dtrace_aggregate_stddev(uint64_t *value, uint64_t nval, uint64_t arg);
void dtrace_aggregate_quantize(uint64_t *value, uint64_t nval, uint64_t arg);
void dtrace_aggregate_lquantize(uint64_t *value, uint64_t nval, uint64_t arg);
void dtrace_aggregate_llquantize(uint64_t *value, uint64_t nval, uint64_t arg);
/* Bucket index (0 = below factor^low) of `value` for llquantize's packed
 * argument parts; also gives the value size (top bucket + 2 words). */
int dtrace_aggregate_llquantize_bucket(uint16_t factor, uint16_t low, uint16_t high,
				       uint16_t nsteps, int64_t value);

/* ------------------------------------------------------------------------
 * Speculations (speculation.c)
 * ------------------------------------------------------------------------
 *
 * DTrace's state machine (illumos sys/dtrace_impl.h), per speculation:
 *
 *   INACTIVE --speculation()--> ACTIVE
 *   ACTIVE --speculate() on a CPU--> ACTIVEONE --speculate() on another
 *     CPU--> ACTIVEMANY
 *   ACTIVE, or ACTIVEONE committed on its own CPU --commit()--> COMMITTING
 *     (copied at once; back to INACTIVE when the copy is done)
 *   ACTIVEMANY, or ACTIVEONE committed elsewhere --commit()--> COMMITTINGMANY
 *     (each CPU's part copied by the cleaner's cross-call; then INACTIVE)
 *   ACTIVE, ACTIVEMANY, or ACTIVEONE discarded elsewhere --discard()-->
 *     DISCARDING (emptied by the cleaner; then INACTIVE)
 *   ACTIVEONE discarded on its own CPU --discard()--> INACTIVE
 *
 * Transitions in probe context are compare-and-swap loops that retry only
 * when another CPU changed the state, which happens a bounded number of
 * times (each state has at most two successors before the cleaner runs).
 */
#define DTRACESPEC_INACTIVE 0u
#define DTRACESPEC_ACTIVE 1u
#define DTRACESPEC_ACTIVEONE 2u
#define DTRACESPEC_ACTIVEMANY 3u
#define DTRACESPEC_COMMITTING 4u
#define DTRACESPEC_COMMITTINGMANY 5u
#define DTRACESPEC_DISCARDING 6u

typedef uint32_t dtrace_specid_t; /* 1..nspec; 0 is "no speculation" */

/* dtrace_speculation_t: typedef'd once, in dtrace_impl.h */
struct dtrace_speculation {
	volatile uint32_t dtsp_state; /* DTRACESPEC_* */
	dtrace_buffer_t *dtsp_buffer; /* per CPU */
};

/*
 * speculation(): take an INACTIVE speculation, make it ACTIVE and return its
 * id; 0 when none is free, counted in dts_speculations_busy if at least one
 * was committing or discarding, else in dts_speculations_unavail.
 * probe context: yes.
 */
dtrace_specid_t dtrace_speculation(struct dtrace_state *state);

/*
 * speculate(which) on `cpu`: the CPU's buffer of the speculation, moving
 * ACTIVE to ACTIVEONE or ACTIVEONE to ACTIVEMANY as needed; NULL when the
 * speculation is not active (or which is 0).  A `which` beyond nspec sets
 * DTRACE_CPUF_ILLOP on the CPU.  The caller reserves its record in the
 * returned buffer with dtrace_buffer_reserve() and writes the record header
 * with timestamp UINT64_MAX: commit stamps it.  probe context: yes.
 */
dtrace_buffer_t *dtrace_speculation_buffer(struct dtrace_state *state, dtrace_cpuid_t cpu,
					   dtrace_specid_t which);

/*
 * commit(which) on `cpu`: copy this CPU's speculative records into its
 * principal buffer (restamping each record with the commit time), counting a
 * drop there if they do not fit; other CPUs' parts are copied by the
 * cleaner.  Silently nothing if the speculation is not active; ILLOP if
 * which > nspec.  probe context: yes.
 */
void dtrace_speculation_commit(struct dtrace_state *state, dtrace_cpuid_t cpu,
			       dtrace_specid_t which);

/* discard(which) on `cpu`: as commit, throwing the records away. */
void dtrace_speculation_discard(struct dtrace_state *state, dtrace_cpuid_t cpu,
				dtrace_specid_t which);

/*
 * The cleaner (fw calls it from the state's cleanrate timer): for every
 * speculation COMMITTINGMANY or DISCARDING, finish the work on every CPU by
 * cross-calls and return it to INACTIVE.  It works from the state's ledger
 * (none: nothing to do): a state word that is no state at all is taken for
 * DISCARDING, and a CPU's part is copied only when both its header and the
 * principal buffer's pass dtrace_bufgeom_check() -- read once, copied from
 * and to private copies -- else it is dropped and counted in the
 * speculation drops STATUS reports.  FRAMEWORK held, or the timer through
 * dtrace_speculation_clean_ledger().  probe context: no.
 */
void dtrace_speculation_clean(struct dtrace_state *state);

/* ------------------------------------------------------------------------
 * The ledger (ledger.c)
 * ------------------------------------------------------------------------
 *
 * Buffers, their dtrace_buffer_t headers and the speculations live in the
 * port's shared memory, which on the Linux host every traced process maps
 * and can write at will.  Probe context writes offsets, drops, flags, key
 * indexes and speculation states there; a traced process can write anything
 * else too.  The core therefore never takes a buffer's address or size
 * from there: at GO it writes down, in memory no traced process can write,
 * where each per-CPU array, each half and each speculation is and how big
 * (the geometries and the speculations' arrays in dtrace_port_zalloc
 * memory, which the state points at so that probe context can read them;
 * the rest private), and checks every value it reads from shared memory
 * against that record, reading each value once: the consumer's side of the
 * core (the control operations, the cleaner, GO and close) and, through
 * dtrace_buffer_reserve_checked and dtrace_aggregate_checked, probe
 * context, which the consumer's own process runs too.
 *
 * One ledger per state that has buffers, found by the state's address (the
 * consumer's own pointer; what it points at is shared), created by
 * dtrace_state_buffers() and destroyed by dtrace_state_buffers_free().
 * Lookups and changes happen with FRAMEWORK held (or in a single-threaded
 * test); the cleaner timer is handed its state's ledger instead of looking
 * it up.
 */

/* One CPU's buffer as the core allocated it. */
typedef struct dtrace_bufgeom {
	char *dbg_half[2];  /* [0]: the first active half; [1]: the other, NULL if NOSWITCH */
	uint64_t dbg_size;  /* bytes in each half; 0: no buffer on this CPU */
	uint32_t dbg_flags; /* the policy it was allocated with: DTRACEBUF_RING, FILL,
			       NOSWITCH, AGGREGATION */
	bool dbg_consumed;  /* ring and fill: the one snapshot after STOP was taken */
} dtrace_bufgeom_t;

/* The policy bits of dtb_flags, fixed at allocation. */
#define DTRACEBUF_POLICY                                                                           \
	(DTRACEBUF_RING | DTRACEBUF_FILL | DTRACEBUF_NOSWITCH | DTRACEBUF_AGGREGATION)

typedef struct dtrace_ledger {
	struct dtrace_state *dl_state;
	uint32_t dl_ncpus;
	int dl_nspec;
	size_t dl_size;			   /* bytes of this block */
	dtrace_buffer_t *dl_buffer;	   /* the per-CPU arrays as allocated */
	dtrace_buffer_t *dl_aggbuffer;
	dtrace_speculation_t *dl_specs;	   /* dl_nspec speculations */
	uint8_t *dl_cleaning;		   /* per speculation: marked by this cleaning round */
	/* In one dtrace_port_zalloc block of dl_shared_size bytes, which
	 * probe context reads (the state points at both): */
	size_t dl_shared_size;
	dtrace_bufgeom_t *dl_geom;	   /* (2 + dl_nspec) x dl_ncpus, see dtrace_ledger_geom */
	dtrace_buffer_t **dl_specbuf;	   /* each speculation's per-CPU array */
	struct dtrace_ledger *dl_next;
} dtrace_ledger_t;

/* Which array of a ledger: the principal buffers, the aggregation buffers,
 * or DTRACE_LEDGER_SPEC + i for speculation i (0-based). */
#define DTRACE_LEDGER_PRINCIPAL 0
#define DTRACE_LEDGER_AGG 1
#define DTRACE_LEDGER_SPEC 2

/*
 * A new, registered ledger for `state` with room for nspec speculations on
 * ncpus CPUs, every geometry empty; NULL when memory is short.
 * probe context: no.
 */
dtrace_ledger_t *dtrace_ledger_create(struct dtrace_state *state, uint32_t ncpus, int nspec);
/* Unregister and free it.  probe context: no. */
void dtrace_ledger_destroy(dtrace_ledger_t *l);
/* The ledger of `state`, or NULL (no buffers: before GO).  probe context: no. */
dtrace_ledger_t *dtrace_ledger_lookup(const struct dtrace_state *state);

/* The per-CPU geometries of one array (DTRACE_LEDGER_*). */
static inline dtrace_bufgeom_t *
dtrace_ledger_geom(const dtrace_ledger_t *l, int which)
{
	return &l->dl_geom[(size_t)which * l->dl_ncpus];
}

/*
 * Check a copy of a buffer's header (`copy`, read from shared memory once)
 * against its geometry and make the copy trustworthy: the halves, size and
 * policy come from `g`, and the offsets read must lie within the buffer on
 * 4-byte boundaries (the ring's oldest offset too, while it has wrapped).
 * Returns false -- the header is corrupt -- when the active half is not one
 * the core allocated (for a ring or fill buffer: not the first) or an
 * offset is out of bounds; `copy` is then unusable.  probe context: yes
 * (it reads only `g` and the copy).
 */
bool dtrace_bufgeom_check(const dtrace_bufgeom_t *g, dtrace_buffer_t *copy);

/*
 * Put a corrupt buffer back to a clean, empty state from its geometry: the
 * first half active, nothing recorded, no drops pending; INACTIVE and the
 * speculation drop count (dtb_xamot_drops) kept.  Run with the buffer's CPU
 * exclusive.  probe context: no.
 */
void dtrace_bufgeom_repair(const dtrace_bufgeom_t *g, dtrace_buffer_t *buf);

/*
 * The state's per-CPU array for DTRACEOPT_BUFSIZE (principal) or
 * DTRACEOPT_AGGSIZE (aggregation) as GO allocated it, whatever the state's
 * shared fields now say; NULL without buffers.  FRAMEWORK held.
 * probe context: no.
 */
dtrace_buffer_t *dtrace_state_bufarray(const struct dtrace_state *state, int which);

/*
 * dtrace_speculation_clean() for the state whose ledger this is: the
 * cleaner timer's argument.  probe context: no.
 */
void dtrace_speculation_clean_ledger(dtrace_ledger_t *l);

#endif /* DTRACE_CORE_BUFFER_IMPL_H */
