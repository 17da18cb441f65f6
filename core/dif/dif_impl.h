/*
 * core/dif/dif_impl.h: DIF objects, the machine state of one probe firing,
 * variable state, and the dynamic-variable store.
 *
 * Owner: core/dif/.  Callers: the ECB code (predicates and actions), DOF
 * loading (validation), the buffers code (aggregation keys).
 *
 * A DIFO is immutable once validated; many ECBs may share it (dtdo_refcnt).
 * The interpreter runs in probe context: it reads D-supplied addresses only
 * through core/port.h nofault loads, and every loop in it is bounded before
 * it starts (DIF has no backward branches; strings stop at strsize).
 */
#ifndef DTRACE_CORE_DIF_IMPL_H
#define DTRACE_CORE_DIF_IMPL_H

#include "../dtrace_abi.h"

struct dtrace_state;
struct dtrace_probe;
struct dtrace_dstate;

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

typedef struct dtrace_mstate {
	uintptr_t dtms_scratch_base;   /* this CPU's scratch area */
	uintptr_t dtms_scratch_ptr;    /* next free scratch byte */
	size_t dtms_scratch_size;
	uint32_t dtms_present;	       /* DTRACE_MSTATE_* */
	uint64_t dtms_arg[5];	       /* arguments given to dtrace_probe */
	dtrace_epid_t dtms_epid;
	uint64_t dtms_timestamp;
	uint64_t dtms_walltimestamp;
	int dtms_stackdepth;
	int dtms_ustackdepth;
	struct dtrace_probe *dtms_probe;
	uintptr_t dtms_caller;
	uint64_t dtms_ucaller;
	int dtms_ipl;
	int dtms_fltoffs;	       /* DIF offset of the last fault, or -1 */
	uintptr_t dtms_strtok;	       /* strtok() continuation */
	uint32_t dtms_access;	       /* DTRACE_ACCESS_* */
	dtrace_cpuid_t dtms_cpu;       /* CPU id of this probe context */
} dtrace_mstate_t;

/* A global or clause-local variable's storage (scalars and by-ref data). */
typedef struct dtrace_statvar {
	uint64_t dtsv_data;	       /* value, or address of its storage */
	size_t dtsv_size;	       /* bytes of storage (by-ref types) */
	int dtsv_refcnt;
	dtrace_difv_t dtsv_var;
} dtrace_statvar_t;

typedef struct dtrace_vstate {
	struct dtrace_state *dtvs_state;
	dtrace_statvar_t **dtvs_globals;   /* by id - DIF_VAR_OTHER_UBASE */
	int dtvs_nglobals;
	dtrace_difv_t *dtvs_tlocals;	   /* thread-locals, by id - UBASE */
	int dtvs_ntlocals;
	dtrace_statvar_t **dtvs_locals;	   /* clause-locals, per CPU storage */
	int dtvs_nlocals;
	struct dtrace_dstate *dtvs_dynvars;
} dtrace_vstate_t;

#endif /* DTRACE_CORE_DIF_IMPL_H */
