/*
 * Destructive actions: without the destructive option GO refuses a state
 * whose clauses use them (EACCES); with it, stop(), raise(sig), chill(ns),
 * breakpoint() and panic() reach the port, chill() at most 500 ms per
 * second (beyond that an ILLOP error), raise() of an impossible signal an
 * ILLOP error; a consumer without kernel privilege gets a KPRIV error for
 * the kernel-destructive ones instead of acting.
 */
#include "core_harness.h"

static dtrace_state_t *
start(uint32_t priv, dtrace_id_t fire, bool destructive, int *goerr)
{
	dtrace_state_t *st;
	dofb_t b;
	int32_t cpu;

	/* uid 1000: the test port's thread, whose probes a non-owner may see */
	CHECK_EQ(dtrace_state_open(priv, 1000, &st), 0);
	dofb_init(&b);
	{
		dof_actdesc_t a[5] = {
			dofb_act(DTRACEACT_STOP, DOF_SECIDX_NONE, 0),
			dofb_act(DTRACEACT_RAISE, dofb_difo_var(&b, DIF_VAR_ARG0, 8), 0),
			dofb_act(DTRACEACT_CHILL, dofb_difo_var(&b, DIF_VAR_ARG1, 8), 0),
			dofb_act(DTRACEACT_BREAKPOINT, DOF_SECIDX_NONE, 0),
			dofb_act(DTRACEACT_PANIC, DOF_SECIDX_NONE, 0),
		};
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, a, 5), 0);
		/* ERROR { trace(arg4) }: the fault code */
		a[0] = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG4, 8));
		dofb_ecbdesc(&b, dofb_probedesc(&b, "dtrace", "", "", "ERROR"), DOF_SECIDX_NONE,
			     dofb_actions(&b, a, 1), 0);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096}, {DTRACEOPT_DESTRUCTIVE, 1}};
		dofb_options(&b, opts, destructive ? 2 : 1);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	*goerr = dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL);
	dofb_fini(&b);
	(void)fire;
	return st;
}

int
main(void)
{
	static const char *const names[] = {"fire", NULL};
	dtrace_id_t ids[1];
	dtrace_provider_id_t p = harness_setup(1, names, ids);
	const testport_destructive_t *d = testport_destructive();
	dtrace_state_t *st;
	int err;

	st = start(DTRACE_PRIV_ALL, ids[0], false, &err);
	CHECK_EQ(err, DTRACE_EACCES);
	dtrace_state_close(st);

	st = start(DTRACE_PRIV_ALL, ids[0], true, &err);
	CHECK_EQ(err, 0);
	dtrace_probe(ids[0], 15, 1000, 0, 0, 0);
	CHECK_EQ(d->td_stops, 1);
	CHECK_EQ(d->td_raised, 15);
	CHECK_EQ(d->td_chilled_ns, 1000);
	CHECK_EQ(d->td_breakpoints, 1);
	CHECK_EQ(d->td_panics, 1);
	CHECK(strstr(d->td_panicmsg, "test:mod:func:fire") != NULL);
	CHECK_EQ(harness_snap(st, 0, false, NULL), 0); /* no error */

	/* 400 ms more fits in the second, then 200 ms does not */
	dtrace_probe(ids[0], 15, 400 * 1000 * 1000, 0, 0, 0);
	CHECK_EQ(d->td_chilled_ns, 1000 + 400 * 1000 * 1000);
	dtrace_probe(ids[0], 15, 200 * 1000 * 1000, 0, 0, 0);
	CHECK_EQ(d->td_chilled_ns, 1000 + 400 * 1000 * 1000);
	CHECK_EQ(harness_snap(st, 0, false, NULL), 24);
	CHECK_EQ(rd64(harness_data + 16), DTRACEFLT_ILLOP);
	/* a signal beyond any NSIG */
	dtrace_probe(ids[0], 999, 0, 0, 0, 0);
	CHECK_EQ(harness_snap(st, 0, false, NULL), 24);
	CHECK_EQ(rd64(harness_data + 16), DTRACEFLT_ILLOP);
	dtrace_state_close(st);

	/* without kernel privilege, breakpoint()/panic()/chill() are faults */
	st = start(DTRACE_PRIV_USER | DTRACE_PRIV_PROC, ids[0], true, &err);
	CHECK_EQ(err, 0);
	dtrace_probe(ids[0], 15, 1000, 0, 0, 0);
	CHECK_EQ(d->td_stops, 5);	/* stop() is process-destructive: allowed */
	CHECK_EQ(d->td_breakpoints, 2); /* unchanged since the second state */
	CHECK_EQ(harness_snap(st, 0, false, NULL), 24);
	CHECK_EQ(rd64(harness_data + 16), DTRACEFLT_KPRIV);
	dtrace_state_close(st);

	harness_teardown(p);
	return TEST_DONE();
}
