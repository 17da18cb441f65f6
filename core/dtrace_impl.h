/*
 * core/dtrace_impl.h: structures shared by the core's own files.
 *
 * Nothing outside core/ (and tests/core, which looks inside on purpose)
 * includes this.  The model is DTrace's: a consumer STATE owns ECBs, buffers,
 * aggregations, speculations and variables; a PROBE owns a chain of ECBs
 * (one per enabling clause per state); an ECB owns a predicate and ACTIONS
 * that record into the firing CPU's buffer at offsets fixed when the ECB was
 * built.  See docs/design.md.
 *
 * Subsystems keep their own structures in their own headers:
 *   dif/dif_impl.h          DIFOs, machine state, variable state, dynvars
 *   buffers/buffer_impl.h   principal, aggregation and speculation buffers
 * and this header ties them together.
 *
 * Locking: probe and provider tables and every state's configuration are
 * changed only with DTRACE_LOCK_FRAMEWORK held (DTRACE_LOCK_PROVIDER first
 * when both are needed).  Probe context takes no lock: it reads ECB chains
 * that are published with release stores and retired only after a
 * dtrace_sync().
 */
#ifndef DTRACE_CORE_DTRACE_IMPL_H
#define DTRACE_CORE_DTRACE_IMPL_H

#include "dtrace.h"
#include "dtrace_atomic.h"

struct dtrace_probe;
struct dtrace_provider;
struct dtrace_ecb;
struct dtrace_action;
struct dtrace_state;
struct dtrace_mstate;
struct dtrace_vstate;
struct dtrace_buffer;
struct dtrace_aggregation;
struct dtrace_speculation;
/* Defined by buffers/buffer_impl.h.  Typedef'd here only: kernel module
 * flags (NetBSD's -std=gnu99) refuse a repeated typedef. */
typedef struct dtrace_speculation dtrace_speculation_t;

#include "dif/dif_impl.h"
#include "buffers/buffer_impl.h"

/* --- Small helpers shared by the core's files ------------------------------ */

#define DTRACE_ROUNDUP(x, align) (((x) + ((align)-1)) & ~((uint64_t)(align)-1))
/* Smallest y >= x with y % align == phase (align a power of two). */
#define DTRACE_PHASEUP(x, align, phase)                                                            \
	((phase) - (((phase) - (x)) & ~((uint64_t)(align)-1)))
#define DTRACE_MIN(a, b) ((a) < (b) ? (a) : (b))
#define DTRACE_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Freestanding string helpers (core/framework.c): no libc in the core. */
size_t dtrace_strlen(const char *s, size_t max);
int dtrace_strcmp(const char *a, const char *b);
/* Copy at most size - 1 bytes and always terminate; returns strlen(src). */
size_t dtrace_strlcpy(char *dst, const char *src, size_t size);
/* Duplicate into dtrace_port_zalloc() memory; free with dtrace_strfree(). */
char *dtrace_strdup(const char *s);
void dtrace_strfree(char *s);

/* Log a message the consumer cannot see (port console). */
void dtrace_log(const char *fmt, ...);

/* --- Per-CPU core state ------------------------------------------------- */

/*
 * Flags of the CPU's probe context.  The DIF interpreter and subroutines set
 * the fault bits (one per DTRACEFLT_* cause) and stop; the ECB walker turns
 * them into an ERROR-probe firing and clears them.
 */
#define DTRACE_CPUF_INPROBE 0x0001    /* inside dtrace_probe() */
#define DTRACE_CPUF_ERROR 0x0002      /* firing the ERROR probe */
#define DTRACE_CPUF_DROP 0x0004       /* the current record was dropped */
#define DTRACE_CPUF_BADADDR 0x0010
#define DTRACE_CPUF_BADALIGN 0x0020
#define DTRACE_CPUF_DIVZERO 0x0040
#define DTRACE_CPUF_ILLOP 0x0080
#define DTRACE_CPUF_NOSCRATCH 0x0100
#define DTRACE_CPUF_KPRIV 0x0200
#define DTRACE_CPUF_UPRIV 0x0400
#define DTRACE_CPUF_TUPOFLOW 0x0800
#define DTRACE_CPUF_BADSTACK 0x1000
#define DTRACE_CPUF_FAULT                                                                          \
	(DTRACE_CPUF_BADADDR | DTRACE_CPUF_BADALIGN | DTRACE_CPUF_DIVZERO | DTRACE_CPUF_ILLOP |    \
	 DTRACE_CPUF_NOSCRATCH | DTRACE_CPUF_KPRIV | DTRACE_CPUF_UPRIV | DTRACE_CPUF_TUPOFLOW |    \
	 DTRACE_CPUF_BADSTACK)

typedef struct dtrace_cpu_core {
	volatile uint32_t cpuc_flags; /* DTRACE_CPUF_* */
	uintptr_t cpuc_illval;	      /* faulting address or value */
	uint64_t cpuc_rand[2];	      /* rand() state of this CPU */
	uint64_t cpuc_recursion;      /* probes refused: CPU already in probe */
	uint64_t cpuc_error_illval;   /* arg5 of the ERROR probe now firing */
	uint64_t cpuc_chillmark;      /* start of the current chill() interval */
	uint64_t cpuc_chilled;	      /* ns chilled in that interval */
} dtrace_cpu_core_t;


/* Map CPU fault flags to the DTRACEFLT_* code of the ERROR probe. */
uint64_t dtrace_fault_code(uint32_t cpuflags);

/* Wait until no CPU is still inside a probe that began before the call. */
void dtrace_sync(void);


/* --- Providers and probes ----------------------------------------------- */

typedef struct dtrace_provider {
	char *dtpv_name;
	dtrace_pattr_t dtpv_attr;
	dtrace_ppriv_t dtpv_priv;    /* privilege needed to see its probes */
	dtrace_pops_t dtpv_pops;
	void *dtpv_arg;
	uint32_t dtpv_nprobes;	     /* live probes */
	uint64_t dtpv_defunct;	     /* gethrtime when invalidated, or 0 */
	struct dtrace_provider *dtpv_next;
} dtrace_provider_t;

typedef struct dtrace_probe {
	dtrace_id_t dtpr_id;
	struct dtrace_ecb *volatile dtpr_ecb; /* ECB chain walked in probe context */
	struct dtrace_ecb *dtpr_ecb_last;     /* tail, for appending */
	void *dtpr_arg;			      /* provider's per-probe argument */
	int dtpr_aframes;
	uint64_t dtpr_gen;		      /* probe generation when created */
	dtrace_provider_t *dtpr_provider;
	char *dtpr_mod;
	char *dtpr_func;
	char *dtpr_name;
	/* chains of the by-module, by-function and by-name hashes */
	struct dtrace_probe *dtpr_nextmod, *dtpr_prevmod;
	struct dtrace_probe *dtpr_nextfunc, *dtpr_prevfunc;
	struct dtrace_probe *dtpr_nextname, *dtpr_prevname;
} dtrace_probe_t;

extern uint64_t dtrace_probegen;	/* bumped by every probe creation */

/* All providers; the `dtrace` provider is first. */
extern dtrace_provider_t *dtrace_providers;

/*
 * What probe context reads, in one block that dtrace_init() allocates with
 * dtrace_port_zalloc() and dtrace_globals points at; probe context never
 * writes it (the per-CPU cores it points at are dtrace_port_zalloc_probe
 * memory).  A port whose probes
 * fire in more than one address space (the Linux host: the consumer and the
 * agents in traced processes, all mapping the port's memory at the same
 * address) lets a second copy of the core fire probes of the first with
 * dtrace_attach(): everything probe context follows starts here, so the
 * copy needs no data of its own.  Outside probe context only the process
 * that ran dtrace_init() touches the core, so the provider list, the probe
 * hashes, the retained enablings and the states stay ordinary globals.
 */
#define DTRACE_GLOBALS_MAGIC 0x6474676c6f62616cULL /* "dtglobal" */

typedef struct dtrace_globals {
	uint64_t dg_magic;
	uint32_t dg_size;		    /* sizeof (dtrace_globals_t) */
	uint32_t dg_ncpus;		    /* entries of dg_cpu_core */
	dtrace_cpu_core_t *dg_cpu_core;	    /* indexed by CPU id */
	/* Probe table, indexed by id - 1; entries are NULL for destroyed
	 * probes.  Probe context reads both with acquire loads. */
	dtrace_probe_t **volatile dg_probes;
	volatile dtrace_id_t dg_nprobes;
	dtrace_id_t dg_probeid_begin, dg_probeid_end, dg_probeid_error;
	dtrace_provider_t *dg_provider_self; /* the `dtrace` provider */
	dtrace_dynvar_t dg_dynvar_sink;	     /* where every dynvar chain ends */
} dtrace_globals_t;

extern dtrace_globals_t *dtrace_globals;
/* Probes refused because no probe context could be entered: counted in the
 * process that fired them (probe context may not write dtrace_globals,
 * which other address spaces map read-only). */
extern volatile uint64_t dtrace_probes_refused;

#define dtrace_cpu_core (dtrace_globals->dg_cpu_core)
#define dtrace_ncpus (dtrace_globals->dg_ncpus)
#define dtrace_probes (dtrace_globals->dg_probes)
#define dtrace_nprobes (dtrace_globals->dg_nprobes)
#define dtrace_probeid_begin (dtrace_globals->dg_probeid_begin)
#define dtrace_probeid_end (dtrace_globals->dg_probeid_end)
#define dtrace_probeid_error (dtrace_globals->dg_probeid_error)
#define dtrace_provider_self (dtrace_globals->dg_provider_self)

/* Probe hashes and table (core/probe.c). */
int dtrace_probe_tables_init(void);
void dtrace_probe_tables_fini(void);
dtrace_probe_t *dtrace_probe_lookup_id(dtrace_id_t id);
void dtrace_probe_description(const dtrace_probe_t *probe, dtrace_probedesc_t *desc);
/* Ask one provider (or all, prv == NULL) to provide probes matching desc;
 * called with DTRACE_LOCK_PROVIDER held and FRAMEWORK not held. */
void dtrace_probe_provide(const dtrace_probedesc_t *desc, dtrace_provider_t *prv);
/* Remove a provider's probes from the tables (FRAMEWORK held); they are
 * returned as a list through dtpr_nextmod for the caller to free after a
 * dtrace_sync().  Only probes without ECBs are taken when `unenabled`. */
dtrace_probe_t *dtrace_probe_unlink_provider(dtrace_provider_t *prov, bool unenabled);
void dtrace_probe_free(dtrace_probe_t *probe);

/*
 * Matching (core/probe_match.c).  A probe key is a compiled description:
 * each field is matched exactly, as a glob, or not at all (empty field).
 */
typedef int dtrace_probekey_f(const char *str, const char *pat, int depth);

typedef struct dtrace_probekey {
	const char *dtpk_prov;
	dtrace_probekey_f *dtpk_pmatch;
	const char *dtpk_mod;
	dtrace_probekey_f *dtpk_mmatch;
	const char *dtpk_func;
	dtrace_probekey_f *dtpk_fmatch;
	const char *dtpk_name;
	dtrace_probekey_f *dtpk_nmatch;
	dtrace_id_t dtpk_id;
} dtrace_probekey_t;

#define DTRACE_MATCH_FAIL (-1)
#define DTRACE_MATCH_NEXT 0
#define DTRACE_MATCH_DONE 1

/* Deepest '*' recursion the glob matcher allows before giving up. */
#define DTRACE_PROBEKEY_MAXDEPTH 8

void dtrace_probekey(const dtrace_probedesc_t *desc, dtrace_probekey_t *key);
/* The matchers a key uses: exact, glob, empty pattern, non-empty string. */
dtrace_probekey_f dtrace_match_string, dtrace_match_globf, dtrace_match_nul,
	dtrace_match_nonzero;
/* >0 match, 0 no match, <0 error (pattern too deep). */
int dtrace_match_probe(const dtrace_probe_t *probe, const dtrace_probekey_t *key, uint32_t priv,
		       uint32_t uid);
bool dtrace_match_priv(const dtrace_probe_t *probe, uint32_t priv, uint32_t uid);
/* Call fn for each probe matching key, using the most selective hash; stop
 * when fn returns DTRACE_MATCH_DONE or _FAIL.  Returns the number matched, or
 * DTRACE_MATCH_FAIL. */
int dtrace_match(const dtrace_probekey_t *key, uint32_t priv, uint32_t uid,
		 int (*fn)(dtrace_probe_t *, void *), void *arg);
/* Hash-table support for dtrace_match (core/probe.c). */
int dtrace_probe_hash_count(int which, const char *str);
dtrace_probe_t *dtrace_probe_hash_first(int which, const char *str);
dtrace_probe_t *dtrace_probe_hash_next(int which, const dtrace_probe_t *probe);
#define DTRACE_HASH_MOD 0
#define DTRACE_HASH_FUNC 1
#define DTRACE_HASH_NAME 2

/* --- Actions and ECBs --------------------------------------------------- */

typedef struct dtrace_action {
	dtrace_actkind_t dta_kind;	   /* DTRACEACT_* or DTRACEAGG_* */
	uint16_t dta_intuple;		   /* part of an aggregation key */
	uint32_t dta_refcnt;		   /* ECBs sharing this action list */
	dtrace_difo_t *dta_difo;	   /* its expression, or NULL */
	dtrace_recdesc_t dta_rec;	   /* where and how it records */
	struct dtrace_action *dta_prev;
	struct dtrace_action *dta_next;
} dtrace_action_t;

/*
 * An aggregating action.  The action is the first member so that the ECB's
 * action list holds it like any other action; dtag_first..dtag_action are
 * the key records followed by the aggregating action itself.
 */
struct dtrace_aggregation { /* dtrace_aggregation_t: typedef'd in buffer_impl.h */
	dtrace_action_t dtag_action;	   /* the aggregating action: first */
	dtrace_aggid_t dtag_id;		   /* aggregation id, dense from 1 */
	uint16_t dtag_hasarg;		   /* last key action is the increment arg */
	uint16_t dtag_pad;
	uint64_t dtag_initial;		   /* initial value of the data */
	struct dtrace_ecb *dtag_ecb;	   /* owning ECB */
	dtrace_action_t *dtag_first;	   /* first action of the key tuple */
	uint32_t dtag_base;		   /* record offset of the aggregation id */
};

/* DTRACE_COND_*: implicit predicates an ECB carries (privilege). */
#define DTRACE_COND_OWNER 0x1	/* the thread's uid must be the state's */

typedef struct dtrace_ecb {
	dtrace_epid_t dte_epid;
	uint32_t dte_alignment;		   /* of its record */
	uint32_t dte_needed;		   /* bytes to reserve per firing */
	uint32_t dte_size;		   /* bytes its data uses */
	dtrace_difo_t *dte_predicate;	   /* NULL: always true */
	dtrace_action_t *dte_action;	   /* first action */
	dtrace_action_t *dte_action_last;
	uint64_t dte_uarg;		   /* compiler's per-ECB argument */
	struct dtrace_state *dte_state;
	dtrace_probe_t *dte_probe;	   /* NULL: primed ECB of no probe */
	struct dtrace_ecb *volatile dte_next; /* next on the probe's chain */
	int dte_cond;			   /* DTRACE_COND_* this ECB requires */
} dtrace_ecb_t;

/*
 * Descriptions loaded from DOF (core/dof_load.c) and turned into ECBs for
 * every matching probe (core/ecb/).  A description can be shared by several
 * enablings (REPLICATE), hence the reference counts.
 */
typedef struct dtrace_actdesc {
	dtrace_difo_t *dtad_difo;	   /* expression, or NULL */
	struct dtrace_actdesc *dtad_next;
	dtrace_actkind_t dtad_kind;
	uint32_t dtad_ntuple;		   /* aggregations: actions in the key */
	uint64_t dtad_arg;		   /* printf-like: (char *) of its string */
	uint64_t dtad_uarg;
	uint32_t dtad_refcnt;
} dtrace_actdesc_t;

typedef struct dtrace_ecbdesc {
	dtrace_actdesc_t *dted_action;	   /* list of actions */
	dtrace_difo_t *dted_pred;	   /* predicate, or NULL */
	dtrace_probedesc_t dted_probe;	   /* probes it applies to */
	uint64_t dted_uarg;
	uint32_t dted_refcnt;
} dtrace_ecbdesc_t;

typedef struct dtrace_enabling {
	dtrace_ecbdesc_t **dten_desc;
	int dten_ndesc;
	int dten_maxdesc;
	struct dtrace_state *dten_state;
	dtrace_ecbdesc_t *dten_current;	   /* description being matched */
	int dten_error;			   /* errno from ECB creation */
	uint64_t dten_probegen;		   /* probes older than this are done */
	bool dten_primed;
	struct dtrace_enabling *dten_next; /* retained enablings */
	struct dtrace_enabling *dten_prev;
} dtrace_enabling_t;

/* Enablings (core/ecb/enabling.c).  FRAMEWORK held unless said. */
dtrace_enabling_t *dtrace_enabling_create(struct dtrace_state *state);
int dtrace_enabling_add(dtrace_enabling_t *enab, dtrace_ecbdesc_t *ep);
void dtrace_enabling_destroy(dtrace_enabling_t *enab);
int dtrace_enabling_retain(dtrace_enabling_t *enab);
int dtrace_enabling_match(dtrace_enabling_t *enab, int *nmatched);
int dtrace_enabling_replicate(struct dtrace_state *state, const dtrace_probedesc_t *match,
			      const dtrace_probedesc_t *create);
void dtrace_enabling_retract(struct dtrace_state *state);
void dtrace_enabling_prime(struct dtrace_state *state);
/* Give providers the chance to create probes named by retained enablings;
 * PROVIDER held, FRAMEWORK not held. */
void dtrace_enabling_provide(dtrace_provider_t *prv);
void dtrace_ecbdesc_release(dtrace_ecbdesc_t *ep, struct dtrace_state *state);
void dtrace_actdesc_release(dtrace_actdesc_t *act, struct dtrace_state *state);
extern dtrace_enabling_t *dtrace_retained;

/* Maximum retained enablings per state (illumos dtrace_retain_max). */
#define DTRACE_RETAIN_MAX 1024
/* Maximum actions in one action description section. */
#define DTRACE_ACTIONS_MAX (16 * 1024)

/* ECBs (core/ecb/ecb.c) and their actions (core/ecb/action.c). */
dtrace_ecb_t *dtrace_ecb_create(struct dtrace_state *state, dtrace_probe_t *probe,
				dtrace_enabling_t *enab);
int dtrace_ecb_enable(dtrace_ecb_t *ecb);
void dtrace_ecb_disable(dtrace_ecb_t *ecb);
void dtrace_ecb_destroy(dtrace_ecb_t *ecb);
int dtrace_ecb_action_add(dtrace_ecb_t *ecb, const dtrace_actdesc_t *desc);
void dtrace_ecb_action_remove(dtrace_ecb_t *ecb);
int dtrace_ecb_resize(dtrace_ecb_t *ecb);
dtrace_ecb_t *dtrace_epid2ecb(struct dtrace_state *state, dtrace_epid_t epid);
dtrace_aggregation_t *dtrace_aggid2agg(struct dtrace_state *state, dtrace_aggid_t id);
/* Reset the "reuse the last ECB's action list" cache (see dtrace_ecb_create). */
void dtrace_ecb_create_cache_reset(void);

/* Format strings of printf-like actions (core/ecb/action.c). */
uint16_t dtrace_format_add(struct dtrace_state *state, const char *str);
void dtrace_format_remove(struct dtrace_state *state, uint16_t format);
void dtrace_format_destroy(struct dtrace_state *state);

/* --- Consumer state ----------------------------------------------------- */

typedef enum dtrace_activity {
	DTRACE_ACTIVITY_INACTIVE = 0,	   /* enablings accepted, not running */
	DTRACE_ACTIVITY_WARMUP,		   /* BEGIN is firing */
	DTRACE_ACTIVITY_ACTIVE,
	DTRACE_ACTIVITY_DRAINING,	   /* exit() called: stop accepting */
	DTRACE_ACTIVITY_COOLDOWN,	   /* END is firing */
	DTRACE_ACTIVITY_STOPPED,
	DTRACE_ACTIVITY_KILLED
} dtrace_activity_t;

/*
 * What probe context writes about a state, apart from the state: the state
 * is dtrace_port_zalloc memory, which probe context in another address
 * space cannot write (port.h), so exit(), the deadman's verdict and the
 * counters probe context bumps live here, in dtrace_port_zalloc_probe
 * memory.  A traced process can write it too: the consumer reads the
 * request bits and the counters as values only.
 */
#define DTRACE_STATE_REQ_EXIT 0x1 /* exit() fired: the state is draining */
#define DTRACE_STATE_REQ_KILL 0x2 /* the deadman found the consumer dead */

typedef struct dtrace_state_rw {
	volatile uint32_t dsr_request;	   /* DTRACE_STATE_REQ_*, set by CAS */
	uint32_t dsr_pad;
	volatile uint64_t dsr_dblerrors;   /* faults inside an ERROR-probe ECB */
	volatile uint64_t dsr_speculations_busy;
	volatile uint64_t dsr_speculations_unavail;
} dtrace_state_rw_t;

struct dtrace_state {
	/* dtrace_activity_t as the control side set it (only it writes it);
	 * probe context adds its requests from dts_rw: see
	 * dtrace_state_activity() */
	volatile uint32_t dts_activity;
	dtrace_state_rw_t *dts_rw;	   /* NULL only in a state a test built */
	uint32_t dts_priv;		   /* DTRACE_PRIV_* of the opener */
	uint32_t dts_uid;
	dtrace_optval_t dts_options[DTRACEOPT_MAX];
	int dts_destructive;		   /* some ECB uses destructive actions */
	int dts_destructive_allowed;	   /* the destructive option is set */
	int dts_speculates;		   /* some ECB speculates */
	dtrace_vstate_t dts_vstate;	   /* variables and dynvars */
	dtrace_buffer_t *dts_buffer;	   /* principal, one per CPU */
	dtrace_buffer_t *dts_aggbuffer;    /* aggregation, one per CPU */
	dtrace_ecb_t **dts_ecbs;	   /* by EPID - 1 */
	dtrace_epid_t dts_necbs;	   /* slots in dts_ecbs */
	dtrace_epid_t dts_epid;		   /* next EPID to hand out */
	uint32_t dts_needed;		   /* largest dte_needed of its ECBs */
	dtrace_aggregation_t **dts_aggregations; /* by aggregation id - 1 */
	dtrace_aggid_t dts_naggregations;  /* slots in dts_aggregations */
	dtrace_speculation_t *dts_speculations;
	int dts_nspeculations;
	/* From the ledger, in memory probe context cannot write (NULL before
	 * GO and in a state a test built): every CPU's buffer geometry,
	 * DTRACE_LEDGER_* x CPUs, and each speculation's per-CPU array. */
	const dtrace_bufgeom_t *dts_geom;
	dtrace_buffer_t *const *dts_specbuf;
	char **dts_formats;		   /* printf-like format strings, by index - 1 */
	int dts_nformats;
	int dts_nretained;		   /* retained enablings */
	volatile uint64_t dts_errors;	   /* ERROR-probe firings that could not record */
	volatile uint64_t dts_stkstroverflows;
	uint64_t dts_reserve;		   /* bytes held back for END/ERROR */
	volatile uint64_t dts_laststatus;  /* gethrtime of the last STATUS */
	volatile uint64_t dts_alive;	   /* consumer's last sign of life */
	int dts_getf;
	dtrace_cpuid_t dts_beganon;	   /* CPU that fired BEGIN */
	dtrace_port_timer_t *dts_cleaner;  /* dynvar and speculation cleaner */
	dtrace_port_timer_t *dts_deadman;
	char dts_errmsg[160];		   /* why the last ENABLE was refused */
	struct dtrace_state *dts_next;	   /* all open states */
};

/*
 * The activity of a state as probe context and the control side must see
 * it: dts_activity, unless probe context asked to stop a WARMUP or ACTIVE
 * state (exit(): DRAINING; the deadman: KILLED).  probe context: yes.
 */
static inline uint32_t
dtrace_state_activity(const struct dtrace_state *state)
{
	uint32_t a = dtrace_load_acquire32(&state->dts_activity), r;

	if ((a != DTRACE_ACTIVITY_ACTIVE && a != DTRACE_ACTIVITY_WARMUP) || state->dts_rw == NULL)
		return a;
	r = dtrace_load_acquire32(&state->dts_rw->dsr_request);
	if (r & DTRACE_STATE_REQ_KILL)
		return DTRACE_ACTIVITY_KILLED;
	return (r & DTRACE_STATE_REQ_EXIT) ? DTRACE_ACTIVITY_DRAINING : a;
}

/* The geometry of CPU `cpu`'s buffer of array `which` (DTRACE_LEDGER_*), or
 * NULL when the state has none to check against.  probe context: yes. */
static inline const dtrace_bufgeom_t *
dtrace_state_geom(const struct dtrace_state *state, int which, dtrace_cpuid_t cpu)
{
	if (state->dts_geom == NULL || cpu >= dtrace_ncpus)
		return NULL;
	return &state->dts_geom[(size_t)which * dtrace_ncpus + cpu];
}

/* Add one to a counter of the state's dts_rw (none in a test's state). */
#define DTRACE_STATE_COUNT(state, field)                                                           	do {                                                                                       		if ((state)->dts_rw != NULL)                                                       			dtrace_add64(&(state)->dts_rw->field, 1);                                  	} while (0)

/* All open states; changed with DTRACE_LOCK_FRAMEWORK held. */
extern dtrace_state_t *dtrace_states;

/* States (core/state.c). */
int dtrace_state_option(dtrace_state_t *state, uint32_t option, dtrace_optval_t val);
int dtrace_state_go(dtrace_state_t *state, dtrace_cpuid_t *cpu);
int dtrace_state_stop(dtrace_state_t *state, dtrace_cpuid_t *cpu);

/* DOF (core/dof_load.c).  The image is the core's private copy, `size`
 * bytes long; a refusal writes the reason to state->dts_errmsg. */
#define DTRACE_DOF_MAXSIZE (8 * 1024 * 1024) /* illumos dtrace_dof_maxsize */
#define DTRACE_DIFO_MAXSIZE (256 * 1024)
int dtrace_dof_slurp(dof_hdr_t *dof, size_t size, dtrace_state_t *state,
		     dtrace_enabling_t **enabp);
int dtrace_dof_options(const dof_hdr_t *dof, dtrace_state_t *state);
void dtrace_state_seterr(dtrace_state_t *state, const char *what, const char *detail);
/* The DOF image of a state's options (DOFGET); free with dtrace_port_free. */
dof_hdr_t *dtrace_dof_create(dtrace_state_t *state, size_t *sizep);

/* Control operations (core/ctl.c) in the pieces core/ctl_ioctl.c reuses.
 * copyout(ctx, src, dst, len) writes to the caller's address dst and
 * returns non-zero on a fault (then the operation fails with EFAULT). */
typedef int (*dtrace_copyout_fn_t)(void *ctx, const void *src, uintptr_t dst, size_t len);
/* ENABLE: check hdr's load size (E2BIG at DTRACE_DOF_MAXSIZE, EINVAL below a
 * header, the reason recorded) and return it in *sizep. */
int dtrace_ctl_dof_size(dtrace_state_t *state, const dof_hdr_t *hdr, size_t *sizep);
/* ENABLE of an image the core owns (size bytes from dtrace_port_zalloc, freed
 * here whatever happens); *rv receives the number of matched probes. */
int dtrace_ctl_enable_image(dtrace_state_t *state, dof_hdr_t *dof, size_t size, int *rv);
/* BUFSNAP/AGGSNAP, FORMAT and DOFGET writing through copyout. */
int dtrace_ctl_snapshot(dtrace_state_t *state, dtrace_ctl_t cmd, dtrace_bufdesc_t *desc,
			dtrace_copyout_fn_t copyout, void *ctx);
int dtrace_ctl_format_copy(dtrace_state_t *state, dtrace_fmtdesc_t *fmt, dtrace_copyout_fn_t copyout,
			   void *ctx);
int dtrace_ctl_dofget_copy(dtrace_state_t *state, uint64_t room, uintptr_t dst,
			   dtrace_copyout_fn_t copyout, void *ctx);

/* --- Probe context (core/probe_fire.c) --------------------------------- */

/* Fire probe `id` on CPU `cpu`, already inside probe context. */
void dtrace_probe_fire(dtrace_cpuid_t cpu, dtrace_id_t id, uint64_t arg0, uint64_t arg1,
		       uint64_t arg2, uint64_t arg3, uint64_t arg4);
/* The value of argument `ndx` of the firing probe (args beyond arg4 come
 * from the provider or the port; arg5 of ERROR is the faulting address). */
uint64_t dtrace_probe_getarg(dtrace_mstate_t *mstate, int ndx);
/* Count an error on a counter shared between CPUs. */
static inline void
dtrace_error(volatile uint64_t *counter)
{
	dtrace_add64(counter, 1);
}

#endif /* DTRACE_CORE_DTRACE_IMPL_H */
