/*
 * fuzz/fuzz_dif.c: libFuzzer target for the DIF validator and interpreter.
 *
 * Each input becomes a DIFO (instructions, integer table, string table,
 * variable table and return type, all taken from the bytes).  The validator
 * must never crash; a DIFO it accepts is set up and run in several machine
 * states (with and without kernel access, on two CPUs, two threads) and
 * must never crash either: every load it makes goes through the test port
 * in strict mode, where only an arena of test memory and the core's own
 * allocations exist, so a stray address is a fault, not a segfault.  Integer
 * table entries whose top byte is 0xAA are made into arena addresses, so the
 * fuzzer reaches real loads and stores; at the end, the core must have freed
 * everything it allocated.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dif/dif_internal.h"
#include "testport.h"
#include "core_globals.h"

/* dtrace_cpu_core and dtrace_ncpus are core/framework.c's; without
 * dtrace_init() this target points them at its own array. */

#define NCPUS 2
#define SCRATCH 4096
#define ARENA 4096

static dtrace_cpu_core_t cpus[NCPUS];
static _Alignas(16) char scratch[NCPUS][SCRATCH];
static _Alignas(16) char arena[ARENA];
static dtrace_state_t state;
static dtrace_provider_t prov = {.dtpv_name = "fuzz"};
static dtrace_probe_t probe = {.dtpr_id = 9, .dtpr_provider = &prov, .dtpr_mod = "m",
			       .dtpr_func = "f", .dtpr_name = "n"};

/* Pull bytes from the input; zeros once it runs out. */
typedef struct in {
	const uint8_t *p;
	size_t n;
} in_t;

static uint64_t
take(in_t *in, size_t bytes)
{
	uint64_t v = 0;

	for (size_t i = 0; i < bytes; i++) {
		v |= (uint64_t)(in->n != 0 ? *in->p : 0) << (8 * i);
		if (in->n != 0)
			in->p++, in->n--;
	}
	return v;
}

static void *
zdup(const void *src, size_t size)
{
	void *p = dtrace_port_zalloc(size);

	memcpy(p, src, size);
	return p;
}

static void
run_in(dtrace_difo_t *dp, dtrace_cpuid_t cpu, uint64_t tid, uint32_t access)
{
	dtrace_mstate_t m;

	memset(&m, 0, sizeof(m));
	testport_set_cpu(cpu);
	testport_switch_thread(tid);
	m.dtms_cpu = cpu;
	m.dtms_scratch_base = m.dtms_scratch_ptr = (uintptr_t)scratch[cpu];
	m.dtms_scratch_size = SCRATCH;
	m.dtms_present = DTRACE_MSTATE_ARGS | DTRACE_MSTATE_PROBE | DTRACE_MSTATE_EPID;
	m.dtms_probe = &probe;
	m.dtms_epid = 3;
	m.dtms_fltoffs = -1;
	m.dtms_access = access;
	for (int i = 0; i < 5; i++)
		m.dtms_arg[i] = (uintptr_t)arena + 64 * (uint64_t)i;
	cpus[cpu].cpuc_flags = 0;
	(void)dtrace_dif_emulate(dp, &m, &state.dts_vstate, &state);
	/* A fault must name an instruction of the DIFO. */
	if ((cpus[cpu].cpuc_flags & DTRACE_CPUF_FAULT) &&
	    (m.dtms_fltoffs < 0 || (uint32_t)m.dtms_fltoffs >= dp->dtdo_len * 4))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	in_t in = {data, size};
	dif_instr_t ins[128];
	uint64_t ints[16];
	char strs[128];
	dtrace_difv_t vars[8];
	dtrace_difo_t *dp;
	uint32_t n, ni, ns, nv, priv;
	char why[128];

	if (!init) {
		testport_reset(false);
		testport_set_ncpus(NCPUS);
		testport_set_strict(true);
		testport_allow_range((uintptr_t)arena, sizeof(arena));
		testport_allow_range((uintptr_t)scratch, sizeof(scratch));
		test_core_globals();
		dtrace_cpu_core = cpus;
		dtrace_ncpus = NCPUS;
		for (int i = 0; i < DTRACEOPT_MAX; i++)
			state.dts_options[i] = DTRACEOPT_UNSET;
		init = true;
	}
	memset(&state.dts_vstate, 0, sizeof(state.dts_vstate));
	state.dts_vstate.dtvs_state = &state;
	state.dts_options[DTRACEOPT_STRSIZE] = 16 + (int64_t)take(&in, 1);
	for (size_t i = 0; i < sizeof(arena); i++)
		arena[i] = (char)(i * 7);

	n = 1 + (uint32_t)take(&in, 1) % 64;
	ni = (uint32_t)take(&in, 1) % 16;
	ns = (uint32_t)take(&in, 1) % sizeof(strs);
	nv = (uint32_t)take(&in, 1) % 8;
	priv = (uint32_t)take(&in, 1) & (DTRACE_PRIV_ALL | DTRACE_DIF_DESTRUCTIVE_OK);
	for (uint32_t i = 0; i < n; i++)
		ins[i] = (dif_instr_t)take(&in, 4);
	for (uint32_t i = 0; i < ni; i++) {
		ints[i] = take(&in, 8);
		if ((ints[i] >> 56) == 0xaa) /* an address in the arena */
			ints[i] = (uintptr_t)arena + (ints[i] & (ARENA - 1));
	}
	for (uint32_t i = 0; i < ns; i++)
		strs[i] = (char)take(&in, 1);
	for (uint32_t i = 0; i < nv; i++) {
		memset(&vars[i], 0, sizeof(vars[i]));
		vars[i].dtdv_id = (uint32_t)take(&in, 1) % 8 + ((take(&in, 1) & 1) ? 0x500 : 0x100);
		vars[i].dtdv_kind = (uint8_t)(take(&in, 1) % 3);
		vars[i].dtdv_scope = (uint8_t)(take(&in, 1) % 4);
		vars[i].dtdv_type.dtdt_kind = (uint8_t)(take(&in, 1) % 3);
		vars[i].dtdv_type.dtdt_flags = (uint8_t)(take(&in, 1) % 4);
		vars[i].dtdv_type.dtdt_size = (uint32_t)take(&in, 2) % 300;
	}

	dp = dtrace_port_zalloc(sizeof(*dp));
	dp->dtdo_buf = zdup(ins, n * sizeof(dif_instr_t));
	dp->dtdo_len = n;
	if (ni != 0) {
		dp->dtdo_inttab = zdup(ints, ni * sizeof(uint64_t));
		dp->dtdo_intlen = ni;
	}
	if (ns != 0) {
		dp->dtdo_strtab = zdup(strs, ns);
		dp->dtdo_strlen = ns;
	}
	if (nv != 0) {
		dp->dtdo_vartab = zdup(vars, nv * sizeof(dtrace_difv_t));
		dp->dtdo_varlen = nv;
	}
	dp->dtdo_rtype.dtdt_kind = (uint8_t)(take(&in, 1) % 3);
	dp->dtdo_rtype.dtdt_flags = (uint8_t)(take(&in, 1) % 4);
	dp->dtdo_rtype.dtdt_size = (uint32_t)take(&in, 1) % 17;

	if (dtrace_difo_validate(dp, &state.dts_vstate, DIF_DIR_NREGS, priv, why, sizeof(why)) != 0 ||
	    dtrace_difo_init(dp, &state.dts_vstate) != 0) {
		dp->dtdo_refcnt = 1;
		dtrace_difo_release(dp, &state.dts_vstate);
	} else {
		(void)dtrace_dstate_init(&state.dts_vstate.dtvs_dynvars, 16 * 1024);
		run_in(dp, 0, 1, DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS);
		run_in(dp, 1, 2, DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS);
		run_in(dp, 0, 1, DTRACE_ACCESS_ARGS);
		dtrace_dynvar_clean(&state.dts_vstate.dtvs_dynvars);
		run_in(dp, 1, 1, 0);
		dtrace_difo_release(dp, &state.dts_vstate);
	}
	dtrace_vstate_fini(&state.dts_vstate);
	if (testport_alloc_outstanding() != 0)
		abort(); /* the core leaked */
	return 0;
}
