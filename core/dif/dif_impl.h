/*
 * core/dif/dif_impl.h: DIF objects, the machine state of one probe firing,
 * variable state, and the dynamic-variable store.
 *
 * Owner: core/dif/.  Callers: the ECB code (predicates and actions), DOF
 * loading (validation, variable set-up), the state (dynamic-variable store
 * sizing and cleaning), the buffers code (speculation()).
 *
 * A DIFO is immutable once validated; many ECBs may share it (dtdo_refcnt).
 * The interpreter runs in probe context: it reads D-supplied addresses only
 * through core/port.h nofault loads (or directly, after checking that the
 * address lies in this CPU's scratch or the DIFO's string table), and every
 * loop in it is bounded before it starts (DIF has no backward branches;
 * strings stop at strsize; hash chains at the store's size).
 *
 * Life cycle, as the rest of the core drives it (FRAMEWORK lock held):
 *   1. DOF loading builds a dtrace_difo_t (tables from dtrace_port_zalloc,
 *      sized exactly: dtdo_len * 4, dtdo_intlen * 8, dtdo_strlen,
 *      dtdo_varlen * sizeof (dtrace_difv_t)) and calls
 *      dtrace_difo_validate(); a non-zero return refuses the DOF with the
 *      reason written to `why`.
 *   2. dtrace_difo_init() gives its variables storage in the state's
 *      dtrace_vstate_t and takes the first reference; dtrace_difo_hold()
 *      and dtrace_difo_release() count further ECBs sharing it; the last
 *      release frees the DIFO and its tables.
 *   3. When the state starts (GO), dtrace_dstate_init() sizes the
 *      dynamic-variable store from the dynvarsize option; a timer at
 *      cleanrate calls dtrace_dynvar_clean(); dtrace_vstate_fini() frees
 *      everything when the state closes.
 *   4. In probe context the ECB walker fills a dtrace_mstate_t (see the
 *      field comments: who sets what) and calls dtrace_dif_emulate() for
 *      the predicate and for each action's expression.  A fault sets a
 *      DTRACE_CPUF_* bit and cpuc_illval in dtrace_cpu_core[dtms_cpu] and
 *      dtms_fltoffs, and the emulator returns 0.
 */
#ifndef DTRACE_CORE_DIF_IMPL_H
#define DTRACE_CORE_DIF_IMPL_H

#include "../dtrace_abi.h"
#include "../port.h"

struct dtrace_state;
struct dtrace_probe;

/* The four libc functions the core may call (every kernel has them). */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

typedef struct dtrace_difo {
	dif_instr_t *dtdo_buf;	      /* instructions */
	uint64_t *dtdo_inttab;	      /* integer table */
	char *dtdo_strtab;	      /* string table */
	dtrace_difv_t *dtdo_vartab;   /* variable table */
	uint32_t dtdo_len;	      /* instructions in dtdo_buf */
	uint32_t dtdo_intlen;	      /* entries in dtdo_inttab */
	uint32_t dtdo_strlen;	      /* bytes in dtdo_strtab */
	uint32_t dtdo_varlen;	      /* entries in dtdo_vartab */
	dtrace_diftype_t dtdo_rtype;  /* type of the value it returns */
	uint32_t dtdo_refcnt;
	uint32_t dtdo_destructive;    /* uses a destructive subroutine */
} dtrace_difo_t;

/*
 * What the firing ECB's consumer may look at (dtms_access), computed from
 * the state's DTRACE_PRIV_* by dtrace_dif_access().
 *   KERNEL  read any memory with LD*, see kernel facts (stackdepth, caller);
 *           without it LD* behave as RLD* (only D-owned memory).
 *   PROC    see process facts (pid, execname, uregs, ...): else UPRIV.
 *   ARGS    see the probe's arguments: else KPRIV.
 */
#define DTRACE_ACCESS_KERNEL 0x0001
#define DTRACE_ACCESS_PROC 0x0002
#define DTRACE_ACCESS_ARGS 0x0004

uint32_t dtrace_dif_access(uint32_t priv);

/*
 * The machine state of one firing: filled by dtrace_probe() before the
 * predicate runs, extended lazily (the dtms_present bits) as DIF asks for
 * costly facts such as stackdepth.
 */
#define DTRACE_MSTATE_ARGS 0x0001
#define DTRACE_MSTATE_PROBE 0x0002
#define DTRACE_MSTATE_EPID 0x0004
#define DTRACE_MSTATE_TIMESTAMP 0x0008
#define DTRACE_MSTATE_STACKDEPTH 0x0010
#define DTRACE_MSTATE_CALLER 0x0020
#define DTRACE_MSTATE_IPL 0x0040
#define DTRACE_MSTATE_FLTOFFS 0x0080
#define DTRACE_MSTATE_WALLTIMESTAMP 0x0100
#define DTRACE_MSTATE_USTACKDEPTH 0x0200
#define DTRACE_MSTATE_UCALLER 0x0400
#define DTRACE_MSTATE_TLSKEY 0x0800 /* dtms_tlskey is the current thread's */

/*
 * Fields marked [W] are set by the ECB walker before the first DIFO of a
 * firing runs; [D] by the DIF code itself; [W/D] by the walker, possibly
 * refreshed by DIF.
 */
typedef struct dtrace_mstate {
	uintptr_t dtms_scratch_base;   /* [W] this CPU's scratch area */
	uintptr_t dtms_scratch_ptr;    /* [W/D] next free scratch byte */
	size_t dtms_scratch_size;      /* [W] bytes from base */
	uint32_t dtms_present;	       /* [W/D] DTRACE_MSTATE_* */
	uint64_t dtms_arg[5];	       /* [W] arguments given to dtrace_probe */
	dtrace_epid_t dtms_epid;       /* [W] */
	uint64_t dtms_timestamp;       /* [W/D] */
	uint64_t dtms_walltimestamp;   /* [D] */
	int dtms_stackdepth;	       /* [D] */
	int dtms_ustackdepth;	       /* [D] */
	struct dtrace_probe *dtms_probe; /* [W] */
	uintptr_t dtms_caller;	       /* [D] */
	uint64_t dtms_ucaller;	       /* [D] */
	int dtms_ipl;		       /* [W] interrupt level, if the port knows it */
	int dtms_fltoffs;	       /* [D] DIF offset (bytes) of the last fault, or -1 */
	uintptr_t dtms_strtok;	       /* [W=0 per firing and state/D] strtok() continuation */
	uintptr_t dtms_strtok_limit;   /* [D] end of the string strtok() walks */
	uint32_t dtms_access;	       /* [W] DTRACE_ACCESS_* */
	dtrace_cpuid_t dtms_cpu;       /* [W] CPU id of this probe context */
	const dtrace_difo_t *dtms_difo; /* [D] DIFO running (its strtab is readable) */
	uint64_t dtms_tlskey;	       /* [D] key of the thread's thread-locals */
} dtrace_mstate_t;

/*
 * A global or clause-local variable's storage, at dtsv_data
 * (dtrace_port_zalloc_probe memory: probe context writes it; the statvar
 * itself, which says where, is dtrace_port_zalloc memory and read-only to
 * probe context).  Scalars: a global's value is one uint64_t; a
 * clause-local's is one uint64_t per CPU.  By-reference types (strings,
 * structs): per instance, an 8-byte header whose first byte is 0xff while
 * the variable is unset (reads give NULL), then dif_byref_size() bytes (a
 * string's dtdt_size and a NUL never written); clause-locals have one
 * instance per CPU.
 */
typedef struct dtrace_statvar {
	uint64_t dtsv_data;	       /* address of its storage */
	size_t dtsv_size;	       /* bytes of storage */
	int dtsv_refcnt;	       /* DIFOs that use it */
	dtrace_difv_t dtsv_var;
} dtrace_statvar_t;

/* Largest by-reference global or clause-local (illumos dtrace_global_maxsize). */
#define DTRACE_STATVAR_MAXSIZE (16 * 1024)

/* --- The dynamic-variable store --------------------------------------------
 *
 * Thread-locals (self->x, self->a[k]) and global associative arrays (a[k])
 * live in one fixed-size region per consumer, carved at GO into a hash table
 * and equal chunks.  A variable is a chunk: dtrace_dynvar_t header, its key
 * tuple (values, with by-reference key bytes copied after the tuple), then
 * its data.  Keys are ordered [key0 .. keyn-1, variable index, thread key]:
 * the variable index and the thread key (the port's DTRACE_THR_KEY plus
 * DIF_VARIABLE_MAX + 1, so it never equals an index) keep the name spaces
 * apart.
 *
 * Probe context is lock-free.  Lookups walk a hash chain that ends at a
 * shared sink; insertion links a chunk at the head with one CAS.  Freeing
 * (assigning 0) unlinks under the bucket's lock word (odd while held; only
 * frees take it, and they hold it for a bounded walk), marks the chunk
 * FREE and pushes it on its CPU's dirty list.  Each CPU allocates from its
 * own free list, refilled from its clean list; when both are empty it
 * takes from the other CPUs' lists before dropping.  Outside probe context
 * dtrace_dynvar_clean() moves dirty lists to rinsing, waits for every CPU
 * (a cross-call), then makes them clean: no chain can still point at them.
 *
 * A failed allocation is a drop, counted per CPU by cause as DTrace reports
 * them in status: dirty (freed chunks awaited cleaning), rinsing (cleaning
 * was in progress), or plain (the store is full).
 */
typedef struct dtrace_key {
	uint64_t dttk_value; /* value, or address of dttk_size bytes */
	uint64_t dttk_size;  /* 0: by value */
} dtrace_key_t;

typedef struct dtrace_tuple {
	uint32_t dtt_nkeys;
	uint32_t dtt_pad;
	dtrace_key_t dtt_key[1]; /* really dtt_nkeys */
} dtrace_tuple_t;

typedef struct dtrace_dynvar {
	uint64_t dtdv_hashval;		   /* DTRACE_DYNHASH_* or a key's hash */
	struct dtrace_dynvar *volatile dtdv_next;
	void *dtdv_data;		   /* the value, inside this chunk */
	dtrace_tuple_t dtdv_tuple;
} dtrace_dynvar_t;

#define DTRACE_DYNHASH_FREE 0	/* on a free, dirty, rinsing or clean list */
#define DTRACE_DYNHASH_SINK 1	/* the end-of-chain sentinel */
#define DTRACE_DYNHASH_VALID 2	/* smallest hash of a live variable */

typedef struct dtrace_dynhash {
	dtrace_dynvar_t *volatile dtdh_chain;
	volatile uintptr_t dtdh_lock; /* odd: a free is unlinking */
} dtrace_dynhash_t;

typedef enum dtrace_dynvar_op {
	DTRACE_DYNVAR_ALLOC,	/* find, or create zeroed */
	DTRACE_DYNVAR_NOALLOC,	/* find only */
	DTRACE_DYNVAR_DEALLOC	/* free if present; returns NULL */
} dtrace_dynvar_op_t;

/* dtdsc_state of CPU 0: why allocation last failed, for the drop counters. */
#define DTRACE_DSTATE_CLEAN 0
#define DTRACE_DSTATE_EMPTY 1
#define DTRACE_DSTATE_DIRTY 2
#define DTRACE_DSTATE_RINSING 3

typedef struct dtrace_dstate_percpu {
	dtrace_dynvar_t *volatile dtdsc_free;
	dtrace_dynvar_t *volatile dtdsc_dirty;
	dtrace_dynvar_t *volatile dtdsc_rinsing;
	dtrace_dynvar_t *volatile dtdsc_clean;
	volatile uint64_t dtdsc_drops;
	volatile uint64_t dtdsc_dirty_drops;
	volatile uint64_t dtdsc_rinsing_drops;
	/* CPU 0's only: DTRACE_DSTATE_*, why allocation last failed.  Here
	 * and not in the dstate because probe context writes it. */
	volatile uint32_t dtdsc_state;
	uint32_t dtdsc_pad; /* one 64-byte line per CPU */
} dtrace_dstate_percpu_t;

/* Smallest chunk, and the chunk size when no DIFO stores a dynamic variable. */
#define DTRACE_DYNVAR_CHUNKSIZE 256

typedef struct dtrace_dstate {
	void *dtds_base;		   /* the region: hash table, then chunks */
	size_t dtds_size;
	size_t dtds_hashsize;		   /* buckets */
	size_t dtds_chunksize;		   /* grown by dtrace_difo_init() */
	size_t dtds_nchunks;		   /* chunks after the hash table */
	dtrace_dynhash_t *dtds_hash;
	uint32_t dtds_ncpus;
	dtrace_dstate_percpu_t *dtds_percpu; /* dtds_ncpus entries */
} dtrace_dstate_t;

typedef struct dtrace_vstate {
	struct dtrace_state *dtvs_state;
	dtrace_statvar_t **dtvs_globals;   /* by id - DIF_VAR_OTHER_UBASE */
	int dtvs_nglobals;
	dtrace_difv_t *dtvs_tlocals;	   /* thread-locals, by id - UBASE */
	int dtvs_ntlocals;
	dtrace_statvar_t **dtvs_locals;	   /* clause-locals, per CPU storage */
	int dtvs_nlocals;
	dtrace_dstate_t dtvs_dynvars;	   /* thread-locals and associative arrays */
} dtrace_vstate_t;

/* --- Validation and DIFO life cycle (not probe context) ------------------ */

/*
 * Check everything a DIFO could do wrong before it may run: opcodes,
 * registers (< nregs, never writing %r0), reserved operand bits, forward
 * in-range branches, integer/string table indices, the string table's
 * terminating NUL, variable ids against the vartab (scope and kind) and
 * against variables already defined in `vs`, built-in variables and
 * subroutines this core implements, privilege, the tuple stack's depth on
 * every path, the final RET, and the return type's size.
 *
 * `priv` is the state's DTRACE_PRIV_* bits, plus DTRACE_DIF_DESTRUCTIVE_OK
 * when destructive actions are allowed.  Returns 0, or the number of errors
 * found; `why` (if not NULL) receives the first as "DIF offset N: reason".
 */
#define DTRACE_DIF_DESTRUCTIVE_OK 0x80000000u
int dtrace_difo_validate(const dtrace_difo_t *dp, const dtrace_vstate_t *vs, uint32_t nregs,
			 uint32_t priv, char *why, size_t whylen);

/* Whether the DIFO calls a destructive subroutine (copyout, copyoutstr). */
bool dtrace_difo_destructive(const dtrace_difo_t *dp);

/* Give the DIFO's variables storage in `vs`, grow the dynamic-variable chunk
 * size for its stores, and take the first reference.  0 or DTRACE_ENOMEM
 * (nothing changed then). */
int dtrace_difo_init(dtrace_difo_t *dp, dtrace_vstate_t *vs);
void dtrace_difo_hold(dtrace_difo_t *dp);
/* Drop a reference; the last one frees variables only it used, its tables
 * and the dtrace_difo_t itself (all from dtrace_port_zalloc). */
void dtrace_difo_release(dtrace_difo_t *dp, dtrace_vstate_t *vs);
/* Free all variable storage and the dynamic-variable store of `vs`. */
void dtrace_vstate_fini(dtrace_vstate_t *vs);

/* --- The dynamic-variable store (dynvar.c) ------------------------------ */

/* Carve `size` bytes (the dynvarsize option) for dtrace_port_ncpus() CPUs,
 * with the chunk size that dtrace_difo_init() accumulated.  Not probe
 * context.  0, or DTRACE_ENOMEM. */
int dtrace_dstate_init(dtrace_dstate_t *ds, size_t size);
void dtrace_dstate_fini(dtrace_dstate_t *ds);
/* The cleaner: call every cleanrate ns, outside probe context. */
void dtrace_dynvar_clean(dtrace_dstate_t *ds);
/* Drops summed over CPUs since dtrace_dstate_init() (STATUS). */
void dtrace_dstate_drops(const dtrace_dstate_t *ds, uint64_t *drops, uint64_t *dirty,
			 uint64_t *rinsing);
/* Look up, create or free the variable keyed by key[0..nkeys-1] (probe
 * context).  By-reference keys are read through the nofault path. */
dtrace_dynvar_t *dtrace_dynvar(dtrace_dstate_t *ds, uint32_t nkeys, const dtrace_key_t *key,
			       size_t dsize, dtrace_dynvar_op_t op, dtrace_mstate_t *mstate,
			       dtrace_vstate_t *vs);
/* The data of a variable dtrace_dynvar() returned, `dsize` bytes: its
 * dtdv_data read once and believed only inside the variable's own chunk
 * (the store is memory traced processes can write); NULL otherwise, which
 * the caller treats as a drop.  probe context: yes. */
void *dtrace_dynvar_data(const dtrace_dstate_t *ds, const dtrace_dynvar_t *dv, size_t dsize);
/* Count a drop of the store on the firing CPU (a variable it found is
 * corrupt) and drop the record.  probe context: yes. */
void dtrace_dynvar_drop(dtrace_dstate_t *ds, dtrace_mstate_t *mstate);

/* --- Running DIF (probe context) ------------------------------------------- */

uint64_t dtrace_dif_emulate(const dtrace_difo_t *dp, dtrace_mstate_t *mstate,
			    dtrace_vstate_t *vs, struct dtrace_state *state);

/*
 * Memory access for the rest of the core's probe-context code (actions
 * tracing strings and by-reference data), with DIF's rules: faults set the
 * CPU's DTRACE_CPUF_* bit and cpuc_illval.
 *   dtrace_dif_canload   may this consumer read [addr, addr + sz)?  (KPRIV)
 *   dtrace_dif_canstore  is it D-writable memory (scratch, variables)?
 *   dtrace_dif_load      1/2/4/8-byte nofault load; BADALIGN when misaligned
 *   dtrace_dif_copy      copy len bytes of D memory into core memory
 *   dtrace_dif_strlen    length of a D string, at most lim
 */
bool dtrace_dif_canload(uint64_t addr, size_t sz, dtrace_mstate_t *mstate,
			const dtrace_vstate_t *vs);
bool dtrace_dif_canstore(uint64_t addr, size_t sz, const dtrace_mstate_t *mstate,
			 const dtrace_vstate_t *vs);
uint64_t dtrace_dif_load(dtrace_mstate_t *mstate, int space, uintptr_t addr, size_t size);
bool dtrace_dif_copy(dtrace_mstate_t *mstate, int space, uintptr_t src, void *dst, size_t len);
size_t dtrace_dif_strlen(dtrace_mstate_t *mstate, uintptr_t s, size_t lim);

#endif /* DTRACE_CORE_DIF_IMPL_H */
