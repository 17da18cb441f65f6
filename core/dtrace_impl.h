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
/* Defined by buffers/buffer_impl.h; C11 allows the typedef to repeat. */
typedef struct dtrace_speculation dtrace_speculation_t;

#include "dif/dif_impl.h"
#include "buffers/buffer_impl.h"

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
	uint32_t cpuc_flags;	     /* DTRACE_CPUF_* */
	uintptr_t cpuc_illval;	     /* faulting address or value */
	uint64_t cpuc_rand[2];	     /* rand() state of this CPU */
	uint64_t cpuc_recursion;     /* probes refused: CPU already in probe */
} dtrace_cpu_core_t;

/* Indexed by CPU id; allocated by dtrace_init() for dtrace_port_ncpus(). */
extern dtrace_cpu_core_t *dtrace_cpu_core;
extern uint32_t dtrace_ncpus;

/* Map CPU fault flags to the DTRACEFLT_* code of the ERROR probe. */
uint64_t dtrace_fault_code(uint32_t cpuflags);

/* --- Providers and probes ----------------------------------------------- */

typedef struct dtrace_provider {
	char *dtpv_name;
	dtrace_pattr_t dtpv_attr;
	uint32_t dtpv_priv;
	dtrace_pops_t dtpv_pops;
	void *dtpv_arg;
	uint32_t dtpv_nprobes;	     /* live probes */
	uint32_t dtpv_nenabled;      /* enabled probes */
	int dtpv_defunct;	     /* unregister pending */
	struct dtrace_provider *dtpv_next;
} dtrace_provider_t;

typedef struct dtrace_probe {
	dtrace_id_t dtpr_id;
	struct dtrace_ecb *dtpr_ecb;	  /* ECB chain walked in probe context */
	struct dtrace_ecb *dtpr_ecb_last; /* tail, for appending */
	void *dtpr_arg;			  /* provider's per-probe argument */
	int dtpr_aframes;
	dtrace_provider_t *dtpr_provider;
	char *dtpr_mod;
	char *dtpr_func;
	char *dtpr_name;
	struct dtrace_probe *dtpr_nextmod, *dtpr_nextfunc, *dtpr_nextname; /* hash chains */
} dtrace_probe_t;

/* Probe table, indexed by id - 1; entries are NULL for destroyed probes. */
extern dtrace_probe_t **dtrace_probes;
extern dtrace_id_t dtrace_nprobes;

/* Probe ids of the `dtrace` provider. */
extern dtrace_id_t dtrace_probeid_begin, dtrace_probeid_end, dtrace_probeid_error;

/* Call fn for each probe matching desc (globs and empty fields as in D);
 * stop early when fn returns non-zero.  Returns the number matched. */
int dtrace_match(const dtrace_probedesc_t *desc, uint32_t priv, uint32_t uid,
		 int (*fn)(dtrace_probe_t *, void *), void *arg);
/* Glob matching of one field with D's rules ('*', '?', '[...]', '\'). */
bool dtrace_match_glob(const char *str, const char *pattern);

/* --- Actions and ECBs --------------------------------------------------- */

typedef struct dtrace_action {
	dtrace_actkind_t dta_kind;	   /* DTRACEACT_* or DTRACEAGG_* */
	uint16_t dta_intuple;		   /* part of an aggregation key */
	uint32_t dta_refcnt;
	dtrace_difo_t *dta_difo;	   /* its expression, or NULL */
	dtrace_recdesc_t dta_rec;	   /* where and how it records */
	struct dtrace_action *dta_prev;
	struct dtrace_action *dta_next;
} dtrace_action_t;

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
	dtrace_probe_t *dte_probe;
	struct dtrace_ecb *dte_next;	   /* next on the probe's chain */
	int dte_cond;			   /* DTRACE_COND_* this ECB requires */
} dtrace_ecb_t;

/* Aggregations are defined with the ECB code; repeated typedef as above. */
typedef struct dtrace_aggregation dtrace_aggregation_t;

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

struct dtrace_state {
	volatile dtrace_activity_t dts_activity;
	uint32_t dts_priv;		   /* DTRACE_PRIV_* of the opener */
	uint32_t dts_uid;
	dtrace_optval_t dts_options[DTRACEOPT_MAX];
	int dts_destructive;		   /* destructive actions allowed */
	dtrace_vstate_t dts_vstate;	   /* variables and dynvars */
	dtrace_buffer_t *dts_buffer;	   /* principal, one per CPU */
	dtrace_buffer_t *dts_aggbuffer;    /* aggregation, one per CPU */
	dtrace_ecb_t **dts_ecbs;	   /* by EPID - 1 */
	dtrace_epid_t dts_necbs;
	dtrace_aggregation_t **dts_aggregations; /* by aggregation id - 1 */
	dtrace_aggid_t dts_naggregations;
	dtrace_speculation_t *dts_speculations;
	int dts_nspeculations;
	char **dts_formats;		   /* printf-like format strings, by index - 1 */
	int dts_nformats;
	uint64_t dts_errors;		   /* ERROR-probe firings that could not record */
	uint64_t dts_dblerrors;		   /* faults inside an ERROR-probe ECB */
	uint64_t dts_reserve;		   /* bytes held back for END/ERROR */
	uint64_t dts_laststatus;	   /* gethrtime of the last STATUS */
	uint64_t dts_alive;		   /* consumer's last sign of life */
	int dts_getf;
	dtrace_cpuid_t dts_beganon;	   /* CPU that fired BEGIN */
	dtrace_port_timer_t *dts_cleaner;  /* dynvar and speculation cleaner */
	dtrace_port_timer_t *dts_deadman;
	struct dtrace_state *dts_next;	   /* all open states */
};

/* All open states; changed with DTRACE_LOCK_FRAMEWORK held. */
extern dtrace_state_t *dtrace_states;

#endif /* DTRACE_CORE_DTRACE_IMPL_H */
