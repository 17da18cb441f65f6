/*
 * exit() and the state's activity: exit(3) in BEGIN records its status and
 * moves the state to DRAINING, so later BEGIN clauses do not run and
 * provider probes record nothing; STATUS reports dtst_exiting; STOP fires
 * END (whose clauses still run, and may exit() again) on the calling CPU;
 * STATUS before GO is ENOENT; STOP before GO is EINVAL.  A second state
 * exits from a provider probe while ACTIVE; only the first exit() on it
 * wins.
 */
#include "core_harness.h"

int
main(void)
{
	static const char *const names[] = {"fire", NULL};
	dtrace_id_t ids[1];
	dtrace_provider_id_t p = harness_setup(2, names, ids);
	dtrace_state_t *st;
	dtrace_status_t stat;
	dofb_t b;
	int32_t cpu;
	char *r;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	{ /* BEGIN { exit(3) }  BEGIN { trace(1) }  fire { trace(arg0) }  END { trace(7); exit(9) } */
		dof_actdesc_t e = dofb_act(DTRACEACT_EXIT, dofb_difo_const(&b, 3, 4), 0);
		dof_actdesc_t t = harness_trace(dofb_difo_const(&b, 1, 8));
		dof_actdesc_t f = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8));
		dof_actdesc_t end[2] = {harness_trace(dofb_difo_const(&b, 7, 8)),
					dofb_act(DTRACEACT_EXIT, dofb_difo_const(&b, 9, 4), 0)};

		dofb_ecbdesc(&b, dofb_probedesc(&b, "dtrace", "", "", "BEGIN"), DOF_SECIDX_NONE,
			     dofb_actions(&b, &e, 1), 0);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "dtrace", "", "", "BEGIN"), DOF_SECIDX_NONE,
			     dofb_actions(&b, &t, 1), 0);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, &f, 1), 0);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "dtrace", "", "", "END"), DOF_SECIDX_NONE,
			     dofb_actions(&b, end, 2), 0);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096}};
		dofb_options(&b, opts, 1);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STATUS, &stat, NULL), DTRACE_ENOENT);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL), DTRACE_EINVAL);

	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
	CHECK_EQ(cpu, 0);
	CHECK_EQ(dtrace_state_activity(st), DTRACE_ACTIVITY_DRAINING);
	memset(&stat, 0, sizeof(stat));
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STATUS, &stat, NULL), 0);
	CHECK_EQ(stat.dtst_exiting, 1);
	CHECK_EQ(stat.dtst_killed, 0);

	testport_set_cpu(1);
	dtrace_probe(ids[0], 55, 0, 0, 0, 0); /* draining: not recorded */
	testport_set_cpu(0);

	/* only the exit record of the first BEGIN clause */
	CHECK_EQ(harness_snap(st, 0, false, NULL), 16);
	CHECK_EQ(rd32(harness_data), 1);
	CHECK_EQ(rd32(harness_data + 12), 3);
	CHECK_EQ(harness_snap(st, 1, false, NULL), 0);

	testport_set_cpu(1);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL), 0);
	CHECK_EQ(cpu, 1); /* END ran here */
	CHECK_EQ(st->dts_activity, DTRACE_ACTIVITY_STOPPED);
	CHECK_EQ(harness_snap(st, 1, false, NULL), 28);
	r = harness_data;
	CHECK_EQ(rd32(r), 4);		/* END's EPID */
	CHECK_EQ(rd64(r + 16), 7);
	CHECK_EQ(rd32(r + 24), 9);	/* exit() in END sets the status again */
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL), DTRACE_EINVAL);
	testport_set_cpu(0);
	dtrace_state_close(st);
	dofb_fini(&b);

	/* exit() from a provider probe while ACTIVE: the first one wins */
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	{
		dof_actdesc_t e = dofb_act(DTRACEACT_EXIT, dofb_difo_var(&b, DIF_VAR_ARG0, 4), 0);

		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, &e, 1), 0);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096}};
		dofb_options(&b, opts, 1);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
	CHECK_EQ(st->dts_activity, DTRACE_ACTIVITY_ACTIVE);
	dtrace_probe(ids[0], 5, 0, 0, 0, 0);
	CHECK_EQ(dtrace_state_activity(st), DTRACE_ACTIVITY_DRAINING);
	dtrace_probe(ids[0], 6, 0, 0, 0, 0); /* not ACTIVE any more */
	CHECK_EQ(harness_snap(st, 0, false, NULL), 16);
	CHECK_EQ(rd32(harness_data + 12), 5);
	dtrace_state_close(st); /* closed while draining: no END, no leak */
	dofb_fini(&b);

	harness_teardown(p);
	return TEST_DONE();
}
