/*
 * tests/core/lib/dif_harness.h: run DIF in a test, without the rest of the
 * framework: a consumer state, a probe, a machine state with scratch, the
 * per-CPU core array, and a tiny assembler-by-macro for DIF.
 *
 * Include once per test file, after test_util.h.
 */
#ifndef DTRACE_DIF_HARNESS_H
#define DTRACE_DIF_HARNESS_H

#include "dif/dif_internal.h"
#include "test_util.h"
#include "testport.h"
#include "core_globals.h"

/*
 * core/framework.c defines dtrace_cpu_core/dtrace_ncpus and dtrace_init()
 * fills them; tests that run DIF without dtrace_init() point them at their
 * own array (env_init below).
 */

/* --- DIF by macro ------------------------------------------------------------- */
#define I(op, r1, r2, rd) DIF_INSTR_FMT(DIF_OP_##op, r1, r2, rd)
#define SETX(i, rd) DIF_INSTR_SETX(i, rd)
#define SETS(s, rd) DIF_INSTR_SETS(s, rd)
#define RET(rd) DIF_INSTR_RET(rd)
#define BR(op, l) DIF_INSTR_BRANCH(DIF_OP_##op, l)
#define LDV(op, v, rd) DIF_INSTR_LDV(DIF_OP_##op, v, rd)
#define STV(op, v, rs) DIF_INSTR_STV(DIF_OP_##op, v, rs)
#define LDGA(arr, ri, rd) DIF_INSTR_LDA(DIF_OP_LDGA, arr, ri, rd)
#define CALL(s, rd) DIF_INSTR_CALL(s, rd)
#define PUSHTV(rs) DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, rs)
#define PUSHTR(type, rsize, rs) DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, type, rsize, rs)
#define NELEM(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

#define HARNESS_SCRATCH 8192

typedef struct dif_env {
	dtrace_state_t state;
	dtrace_state_rw_t state_rw; /* what probe context writes about it */
	dtrace_provider_t prov;
	dtrace_probe_t probe;
	dtrace_mstate_t m;
	dtrace_cpu_core_t cpus[TESTPORT_MAXCPUS];
	_Alignas(16) char scratch[TESTPORT_MAXCPUS][HARNESS_SCRATCH];
} dif_env_t;

static inline dtrace_vstate_t *
env_vs(dif_env_t *e)
{
	return &e->state.dts_vstate;
}

/* The machine state for a new firing on the current test-port CPU. */
static inline void
env_fire(dif_env_t *e)
{
	dtrace_cpuid_t cpu = testport_cpu();
	uint32_t access = e->m.dtms_access;

	memset(&e->m, 0, sizeof(e->m));
	e->m.dtms_cpu = cpu;
	e->m.dtms_scratch_base = (uintptr_t)e->scratch[cpu];
	e->m.dtms_scratch_ptr = e->m.dtms_scratch_base;
	e->m.dtms_scratch_size = HARNESS_SCRATCH;
	e->m.dtms_present = DTRACE_MSTATE_ARGS | DTRACE_MSTATE_PROBE | DTRACE_MSTATE_EPID;
	e->m.dtms_probe = &e->probe;
	e->m.dtms_epid = 7;
	e->m.dtms_fltoffs = -1;
	e->m.dtms_access = access;
	for (int i = 0; i < 5; i++)
		e->m.dtms_arg[i] = 0xa0 + (uint64_t)i;
	e->cpus[cpu].cpuc_flags = 0;
	e->cpus[cpu].cpuc_illval = 0;
}

static inline void
env_init(dif_env_t *e, uint32_t ncpus)
{
	testport_reset(false);
	testport_set_ncpus(ncpus);
	memset(e, 0, sizeof(*e));
	test_core_globals();
	dtrace_cpu_core = e->cpus;
	dtrace_ncpus = ncpus;
	for (int i = 0; i < DTRACEOPT_MAX; i++)
		e->state.dts_options[i] = DTRACEOPT_UNSET;
	e->state.dts_options[DTRACEOPT_STRSIZE] = 256;
	e->state.dts_priv = DTRACE_PRIV_ALL;
	e->state.dts_vstate.dtvs_state = &e->state;
	e->state.dts_rw = &e->state_rw;
	e->prov.dtpv_name = "testprov";
	e->probe.dtpr_id = 42;
	e->probe.dtpr_provider = &e->prov;
	e->probe.dtpr_mod = "testmod";
	e->probe.dtpr_func = "testfunc";
	e->probe.dtpr_name = "entry";
	e->m.dtms_access = DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
	env_fire(e);
}

static inline void
env_fini(dif_env_t *e)
{
	dtrace_vstate_fini(env_vs(e));
}

static inline uint32_t
env_flags(dif_env_t *e)
{
	return e->cpus[e->m.dtms_cpu].cpuc_flags;
}

static inline uintptr_t
env_illval(dif_env_t *e)
{
	return e->cpus[e->m.dtms_cpu].cpuc_illval;
}

/* A DIFO with its tables in port memory, as DOF loading makes them. */
static inline dtrace_difo_t *
mkdifo(const dif_instr_t *ins, uint32_t n, const uint64_t *ints, uint32_t ni, const char *strs,
       uint32_t ns, const dtrace_difv_t *vars, uint32_t nv)
{
	dtrace_difo_t *dp = dtrace_port_zalloc(sizeof(*dp));

	dp->dtdo_buf = dtrace_port_zalloc(n * sizeof(dif_instr_t));
	memcpy(dp->dtdo_buf, ins, n * sizeof(dif_instr_t));
	dp->dtdo_len = n;
	if (ni != 0) {
		dp->dtdo_inttab = dtrace_port_zalloc(ni * sizeof(uint64_t));
		memcpy(dp->dtdo_inttab, ints, ni * sizeof(uint64_t));
		dp->dtdo_intlen = ni;
	}
	if (ns != 0) {
		dp->dtdo_strtab = dtrace_port_zalloc(ns);
		memcpy(dp->dtdo_strtab, strs, ns);
		dp->dtdo_strlen = ns;
	}
	if (nv != 0) {
		dp->dtdo_vartab = dtrace_port_zalloc(nv * sizeof(dtrace_difv_t));
		memcpy(dp->dtdo_vartab, vars, nv * sizeof(dtrace_difv_t));
		dp->dtdo_varlen = nv;
	}
	dp->dtdo_rtype.dtdt_kind = DIF_TYPE_CTF;
	dp->dtdo_rtype.dtdt_size = 8;
	return dp;
}

static inline dtrace_difv_t
mkvar(uint32_t id, uint8_t scope, uint8_t kind, uint8_t tkind, uint8_t flags, uint32_t size)
{
	dtrace_difv_t v;

	memset(&v, 0, sizeof(v));
	v.dtdv_id = id;
	v.dtdv_scope = scope;
	v.dtdv_kind = kind;
	v.dtdv_type.dtdt_kind = tkind;
	v.dtdv_type.dtdt_flags = flags;
	v.dtdv_type.dtdt_size = size;
	return v;
}

/* Validate (failing the test with the reason if refused) and set up. */
static inline dtrace_difo_t *
env_load(dif_env_t *e, dtrace_difo_t *dp)
{
	char why[256];

	if (dtrace_difo_validate(dp, env_vs(e), DIF_DIR_NREGS,
				 e->state.dts_priv | DTRACE_DIF_DESTRUCTIVE_OK, why, sizeof(why)) != 0) {
		test_failures++;
		fprintf(stderr, "DIFO refused: %s\n", why);
		return NULL;
	}
	if (dtrace_difo_init(dp, env_vs(e)) != 0) {
		test_failures++;
		fprintf(stderr, "dtrace_difo_init failed\n");
		return NULL;
	}
	return dp;
}

/* Start the dynamic-variable store (what GO does). */
static inline void
env_go(dif_env_t *e, size_t dynvarsize)
{
	if (dtrace_dstate_init(&env_vs(e)->dtvs_dynvars, dynvarsize) != 0) {
		test_failures++;
		fprintf(stderr, "dtrace_dstate_init failed\n");
	}
}

/* Run a loaded DIFO in the current firing. */
static inline uint64_t
env_run(dif_env_t *e, const dtrace_difo_t *dp)
{
	if (dp == NULL)
		return 0xdeadbeef;
	return dtrace_dif_emulate(dp, &e->m, env_vs(e), &e->state);
}

/* New firing, then run. */
static inline uint64_t
env_run1(dif_env_t *e, const dtrace_difo_t *dp)
{
	env_fire(e);
	return env_run(e, dp);
}

#define CHECK_FAULT(e, flag, addr, offs)                                                   \
	do {                                                                               \
		CHECK_EQ(env_flags(e) & DTRACE_CPUF_FAULT, (flag));                        \
		CHECK_EQ(env_illval(e), (addr));                                           \
		CHECK_EQ((e)->m.dtms_fltoffs, (offs));                                     \
	} while (0)

#define CHECK_NOFAULT(e) CHECK_EQ(env_flags(e) & DTRACE_CPUF_FAULT, 0)

#endif /* DTRACE_DIF_HARNESS_H */
