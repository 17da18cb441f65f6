/*
 * The cleanrate option, as DTrace's dtrace_state_go() applies it: 0 means
 * the slowest rate, anything outside [DTRACE_CLEANRATE_MIN,
 * DTRACE_CLEANRATE_MAX] is clamped, unset is the default (about 101 Hz).
 * GO starts the cleaner at that interval beside the deadman (1 s); each time
 * the cleaner fires it finishes speculations other CPUs still hold parts of,
 * and nothing else does; closing the state stops both timers.
 */
#include "core_harness.h"

/* Interval of the active timer that is not the deadman's (0: none). */
static uint64_t
cleaner_interval(void)
{
	uint64_t found = 0;

	for (size_t i = 0; i < testport_timers_active(); i++)
		if (testport_timer_interval(i) != DTRACE_DEADMAN_INTERVAL)
			found = testport_timer_interval(i);
	return found;
}

static void
test_rate(dtrace_id_t fire, int64_t rate, uint64_t want)
{
	dtrace_state_t *st;
	dofb_t b;
	int32_t cpu;
	dof_actdesc_t a;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	a = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8));
	dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
		     dofb_actions(&b, &a, 1), 0);
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096},
					    {DTRACEOPT_CLEANRATE, (uint64_t)rate}};
		dofb_options(&b, opts, rate != DTRACEOPT_UNSET ? 2 : 1);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(testport_timers_active(), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
	CHECK_EQ(testport_timers_active(), 2);
	CHECK_EQ(cleaner_interval(), want);
	CHECK_EQ(st->dts_options[DTRACEOPT_CLEANRATE], want);
	dtrace_probe(fire, 1, 0, 0, 0, 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL), 0);
	dtrace_state_close(st);
	CHECK_EQ(testport_timers_active(), 0);
	dofb_fini(&b);
}

/* A speculation with parts on two CPUs, committed: only the cleaner ends it. */
static void
test_cleaner_finishes_speculations(const dtrace_id_t *ids)
{
	dtrace_state_t *st = harness_start_speculating(4096, 4096, DTRACE_CLEANRATE_MIN);
	int32_t cpu;

	if (st->dts_speculations == NULL) { /* GO failed: already reported */
		dtrace_state_close(st);
		return;
	}

	dtrace_probe(ids[1], 0, 0, 0, 0, 0); /* speculation 1 */
	dtrace_probe(ids[0], 10, 0, 0, 0, 0);
	testport_set_cpu(1);
	dtrace_probe(ids[0], 11, 0, 0, 0, 0);
	testport_set_cpu(0);
	dtrace_probe(ids[2], 0, 0, 0, 0, 0); /* commit: CPU 1's part waits */
	CHECK_EQ(st->dts_speculations[0].dtsp_state, DTRACESPEC_COMMITTINGMANY);
	CHECK_EQ(harness_snap(st, 1, false, NULL), 0);
	/* the deadman is not the cleaner */
	CHECK_EQ(testport_fire_timers(DTRACE_DEADMAN_INTERVAL), 1);
	CHECK_EQ(st->dts_speculations[0].dtsp_state, DTRACESPEC_COMMITTINGMANY);
	CHECK_EQ(testport_fire_timers(DTRACE_CLEANRATE_MIN), 1);
	CHECK_EQ(st->dts_speculations[0].dtsp_state, DTRACESPEC_INACTIVE);
	CHECK_EQ(harness_snap(st, 1, false, NULL), 24);
	CHECK_EQ(rd64(harness_data + 16), 11);

	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL), 0);
	dtrace_state_close(st);
}

int
main(void)
{
	static const char *const names[] = {"fire", "start", "commit", NULL};
	dtrace_id_t ids[3];
	dtrace_provider_id_t p = harness_setup(2, names, ids);

	test_rate(ids[0], DTRACEOPT_UNSET, (uint64_t)DTRACE_CLEANRATE_DEFAULT);
	test_rate(ids[0], 0, (uint64_t)DTRACE_CLEANRATE_MAX);
	test_rate(ids[0], 1, (uint64_t)DTRACE_CLEANRATE_MIN);
	test_rate(ids[0], DTRACE_CLEANRATE_MIN - 1, (uint64_t)DTRACE_CLEANRATE_MIN);
	test_rate(ids[0], 5000000, 5000000);
	test_rate(ids[0], DTRACE_CLEANRATE_MAX + 1, (uint64_t)DTRACE_CLEANRATE_MAX);
	test_cleaner_finishes_speculations(ids);
	harness_teardown(p);
	return TEST_DONE();
}
