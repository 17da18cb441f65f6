/*
 * DIF's built-in variables give the firing's facts from the machine state
 * and core/port.h, computed once per firing where DTrace caches them, and
 * refuse what the consumer's privilege does not cover: process facts need
 * proc access (UPRIV), kernel facts kernel access (KPRIV), arguments args
 * access (KPRIV).
 */
#include "dif_harness.h"

static dif_env_t env;
static dif_env_t *e = &env;

static uint64_t
getvar(uint32_t id)
{
	dif_instr_t p[] = {LDV(LDGS, id, 1), RET(1)};
	dtrace_difo_t *dp = env_load(e, mkdifo(p, NELEM(p), NULL, 0, NULL, 0, NULL, 0));
	uint64_t r = env_run(e, dp);

	/* Released at the end of the firing's checks: strings may point in. */
	dtrace_difo_release(dp, env_vs(e));
	return r;
}

static uint64_t
getarr(uint32_t arr, uint64_t ndx)
{
	uint64_t ints[] = {ndx};
	dif_instr_t p[] = {SETX(0, 2), LDGA(arr, 2, 1), RET(1)};
	dtrace_difo_t *dp = env_load(e, mkdifo(p, NELEM(p), ints, 1, NULL, 0, NULL, 0));
	uint64_t r = env_run(e, dp);

	dtrace_difo_release(dp, env_vs(e));
	return r;
}

static uint64_t getargval_calls;

static uint64_t
test_getargval(void *parg, dtrace_id_t id, void *parg_probe, int n, int aframes)
{
	(void)parg;
	(void)parg_probe;
	getargval_calls++;
	return 0x1000 + (uint64_t)n + (uint64_t)id * 0x10000 + (uint64_t)aframes * 0x1000000;
}

static void
test_arguments(void)
{
	uint64_t args[] = {0, 0, 0, 0, 0, 0x55, 0x66, 0x77, 0x88, 0x99};

	env_fire(e);
	for (uint32_t i = 0; i < 5; i++) {
		CHECK_EQ(getvar(DIF_VAR_ARG0 + i), 0xa0 + i);
		CHECK_EQ(getarr(DIF_VAR_ARGS, i), 0xa0 + i);
	}
	/* Beyond arg4: the port's argument fetch, skipping the provider's frames. */
	testport_set_args(args, 10);
	e->probe.dtpr_aframes = 3;
	CHECK_EQ(getvar(DIF_VAR_ARG5), 0x55);
	CHECK_EQ(getvar(DIF_VAR_ARG9), 0x99);
	CHECK_EQ(getarr(DIF_VAR_ARGS, 7), 0x77);
	/* ...or the provider's own getargval when it has one. */
	e->prov.dtpv_pops.dtps_getargval = test_getargval;
	CHECK_EQ(getvar(DIF_VAR_ARG6), 0x1000 + 6 + 42 * 0x10000 + 3 * 0x1000000);
	CHECK_EQ(getargval_calls, 1);
	CHECK_EQ(getvar(DIF_VAR_ARG2), 0xa2); /* the first five never ask */
	e->prov.dtpv_pops.dtps_getargval = NULL;
	CHECK_NOFAULT(e);
	/* No args access: KPRIV. */
	e->m.dtms_access = DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC;
	CHECK_EQ(getvar(DIF_VAR_ARG0), 0);
	CHECK_FAULT(e, DTRACE_CPUF_KPRIV, 0, 0);
	e->m.dtms_access = DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
}

static void
test_times_are_cached_per_firing(void)
{
	testport_set_time(1000);
	testport_set_walltime(5000);
	env_fire(e);
	CHECK_EQ(getvar(DIF_VAR_TIMESTAMP), 1000);
	CHECK_EQ(getvar(DIF_VAR_WALLTIMESTAMP), 5000);
	testport_advance_time(10);
	CHECK_EQ(getvar(DIF_VAR_TIMESTAMP), 1000);
	CHECK_EQ(getvar(DIF_VAR_WALLTIMESTAMP), 5000);
	env_fire(e);
	CHECK_EQ(getvar(DIF_VAR_TIMESTAMP), 1010);
	CHECK_EQ(getvar(DIF_VAR_WALLTIMESTAMP), 5010);
	/* The walker's timestamp, when it set one, is the one D sees. */
	env_fire(e);
	e->m.dtms_timestamp = 77;
	e->m.dtms_present |= DTRACE_MSTATE_TIMESTAMP;
	CHECK_EQ(getvar(DIF_VAR_TIMESTAMP), 77);
	testport_thread()->tt_fact[DTRACE_THR_VTIME] = 4242;
	CHECK_EQ(getvar(DIF_VAR_VTIMESTAMP), 4242);
}

static void
test_probe_facts(void)
{
	env_fire(e);
	CHECK_EQ(getvar(DIF_VAR_EPID), 7);
	CHECK_EQ(getvar(DIF_VAR_ID), 42);
	CHECK_STREQ((const char *)(uintptr_t)getvar(DIF_VAR_PROBEPROV), "testprov");
	CHECK_STREQ((const char *)(uintptr_t)getvar(DIF_VAR_PROBEMOD), "testmod");
	CHECK_STREQ((const char *)(uintptr_t)getvar(DIF_VAR_PROBEFUNC), "testfunc");
	CHECK_STREQ((const char *)(uintptr_t)getvar(DIF_VAR_PROBENAME), "entry");
	/* With kernel access the probe's own string is handed out... */
	CHECK_EQ(getvar(DIF_VAR_PROBENAME), (uintptr_t)e->probe.dtpr_name);
	/* ...without it, a copy in scratch that later checks accept. */
	e->m.dtms_access = DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
	uintptr_t s = getvar(DIF_VAR_PROBEFUNC);
	CHECK(dtrace_dif_inrange(s, 9, e->m.dtms_scratch_base, HARNESS_SCRATCH));
	CHECK_STREQ((const char *)s, "testfunc");
	/* Truncated at strsize. */
	e->state.dts_options[DTRACEOPT_STRSIZE] = 4;
	CHECK_STREQ((const char *)(uintptr_t)getvar(DIF_VAR_PROBEFUNC), "test");
	e->state.dts_options[DTRACEOPT_STRSIZE] = 256;
	CHECK_NOFAULT(e);
	e->m.dtms_access = DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
}

static void
test_thread_facts(void)
{
	testport_thread_t *t = testport_thread();

	testport_switch_thread(555);
	t->tt_fact[DTRACE_THR_ERRNO] = 2;
	snprintf(t->tt_execname, sizeof(t->tt_execname), "bash");
	testport_set_ncpus(4);
	testport_set_cpu(3);
	env_fire(e);
	CHECK_EQ(getvar(DIF_VAR_PID), 100);
	CHECK_EQ(getvar(DIF_VAR_TID), 555);
	CHECK_EQ(getvar(DIF_VAR_PPID), 1);
	CHECK_EQ(getvar(DIF_VAR_UID), 1000);
	CHECK_EQ(getvar(DIF_VAR_GID), 1000);
	CHECK_EQ(getvar(DIF_VAR_ERRNO), 2);
	CHECK_EQ(getvar(DIF_VAR_CURTHREAD), 0xc0ffee00u + 555);
	CHECK_EQ(getvar(DIF_VAR_CPU), 3);
	CHECK_STREQ((const char *)(uintptr_t)getvar(DIF_VAR_EXECNAME), "bash");
	CHECK_STREQ((const char *)(uintptr_t)getvar(DIF_VAR_ZONENAME), "global");
	CHECK_NOFAULT(e);

	/* Without proc access each process fact is a UPRIV fault; tid is not. */
	static const uint32_t proc[] = {DIF_VAR_PID,	   DIF_VAR_PPID,     DIF_VAR_UID,
					DIF_VAR_GID,	   DIF_VAR_ERRNO,    DIF_VAR_EXECNAME,
					DIF_VAR_ZONENAME, DIF_VAR_CURTHREAD, DIF_VAR_USTACKDEPTH,
					DIF_VAR_UCALLER};
	e->m.dtms_access = DTRACE_ACCESS_ARGS;
	for (size_t i = 0; i < NELEM(proc); i++) {
		env_fire(e);
		CHECK_EQ(getvar(proc[i]), 0);
		CHECK_EQ(env_flags(e) & DTRACE_CPUF_FAULT, DTRACE_CPUF_UPRIV);
	}
	env_fire(e);
	CHECK_EQ(getvar(DIF_VAR_TID), 555);
	CHECK_NOFAULT(e);
	e->m.dtms_access = DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
	testport_set_cpu(0);
}

static void
test_stacks_and_registers(void)
{
	uint64_t k[] = {0x10, 0x11, 0x12, 0xf1, 0xf2, 0xf3, 0xf4};
	uint64_t u[] = {0x400000, 0x400100, 0x400200};
	uint64_t regs[] = {7, 8, 9};

	testport_set_pcstack(k, 7);
	testport_set_ustack(u, 3);
	testport_set_regs(regs, 3);
	e->probe.dtpr_aframes = 3;
	env_fire(e);
	CHECK_EQ(getvar(DIF_VAR_STACKDEPTH), 4);
	CHECK_EQ(getvar(DIF_VAR_CALLER), 0xf2);
	CHECK_EQ(getvar(DIF_VAR_USTACKDEPTH), 3);
	CHECK_EQ(getvar(DIF_VAR_UCALLER), 0x400100);
	/* Cached for the firing. */
	testport_set_pcstack(k, 5);
	CHECK_EQ(getvar(DIF_VAR_STACKDEPTH), 4);
	env_fire(e);
	CHECK_EQ(getvar(DIF_VAR_STACKDEPTH), 2);
	CHECK_EQ(getarr(DIF_VAR_UREGS, 2), 9);
	CHECK_NOFAULT(e);
	/* A register the port does not have: ILLOP naming it. */
	CHECK_EQ(getarr(DIF_VAR_UREGS, 40), 0);
	CHECK_FAULT(e, DTRACE_CPUF_ILLOP, 40, 4);
	/* Kernel facts without kernel access: KPRIV. */
	e->m.dtms_access = DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
	env_fire(e);
	CHECK_EQ(getvar(DIF_VAR_STACKDEPTH), 0);
	CHECK_EQ(env_flags(e) & DTRACE_CPUF_FAULT, DTRACE_CPUF_KPRIV);
	env_fire(e);
	CHECK_EQ(getvar(DIF_VAR_CALLER), 0);
	CHECK_EQ(env_flags(e) & DTRACE_CPUF_FAULT, DTRACE_CPUF_KPRIV);
	env_fire(e);
	CHECK_EQ(getvar(DIF_VAR_IPL), 0);
	CHECK_EQ(env_flags(e) & DTRACE_CPUF_FAULT, DTRACE_CPUF_KPRIV);
	e->m.dtms_access = DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
	/* ipl: what the walker recorded, else 0. */
	env_fire(e);
	CHECK_EQ(getvar(DIF_VAR_IPL), 0);
	e->m.dtms_ipl = 5;
	e->m.dtms_present |= DTRACE_MSTATE_IPL;
	CHECK_EQ(getvar(DIF_VAR_IPL), 5);
}

static void
test_access_for_privilege(void)
{
	CHECK_EQ(dtrace_dif_access(DTRACE_PRIV_ALL),
		 DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS);
	CHECK_EQ(dtrace_dif_access(DTRACE_PRIV_PROC), DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS);
	CHECK_EQ(dtrace_dif_access(DTRACE_PRIV_OWNER), DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS);
	CHECK_EQ(dtrace_dif_access(DTRACE_PRIV_USER), DTRACE_ACCESS_ARGS);
	CHECK_EQ(dtrace_dif_access(DTRACE_PRIV_NONE), 0);
}

int
main(void)
{
	env_init(e, 1);
	test_arguments();
	test_times_are_cached_per_firing();
	test_probe_facts();
	test_thread_facts();
	test_stacks_and_registers();
	test_access_for_privilege();
	env_fini(e);
	CHECK_EQ(testport_alloc_outstanding(), 0);
	return TEST_DONE();
}
