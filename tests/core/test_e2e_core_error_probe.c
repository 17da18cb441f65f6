/*
 * A fault in a clause drops the clause's partial record and fires
 * dtrace:::ERROR with DTrace's arguments: arg1 the EPID, arg2 the action
 * index (0 for the predicate), arg3 the DIF byte offset of the faulting
 * instruction, arg4 the DTRACEFLT_* code, arg5 the faulting address.  Later
 * clauses on the same probe still run.  A fault inside an ERROR clause is
 * only counted (dtst_dblerrors); every fault counts in dtst_errors.
 */
#include "core_harness.h"

/* trace(*(uint64_t *)arg0): the load is instruction 1, byte offset 4 */
static uint32_t
difo_deref_arg0(dofb_t *b, uint32_t size)
{
	dif_instr_t text[] = {DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0, 1),
			      DIF_INSTR_LOAD(DIF_OP_LDX, 1, 2), DIF_INSTR_RET(2)};

	return dofb_difo(b, dofb_type_int(size), text, 3, NULL, 0, NULL, 0, NULL, 0);
}

/* ERROR { trace(arg1); trace(arg2); trace(arg3); trace(arg4); trace(arg5) } */
static void
error_clause(dofb_t *b, bool faulting)
{
	dof_actdesc_t a[6];
	int n = 0;

	for (uint32_t v = DIF_VAR_ARG1; v <= DIF_VAR_ARG5; v++)
		a[n++] = harness_trace(dofb_difo_var(b, v, 8));
	if (faulting) { /* and a fault of its own: a load from address 8 */
		dif_instr_t text[] = {DIF_INSTR_SETX(0, 1), DIF_INSTR_LOAD(DIF_OP_LDX, 1, 2),
				      DIF_INSTR_RET(2)};
		uint64_t eight = 8;

		a[n++] = harness_trace(
			dofb_difo(b, dofb_type_int(8), text, 3, &eight, 1, NULL, 0, NULL, 0));
	}
	dofb_ecbdesc(b, dofb_probedesc(b, "dtrace", "", "", "ERROR"), DOF_SECIDX_NONE,
		     dofb_actions(b, a, (size_t)n), 0);
}

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
	uint64_t n;
	char *r;

	/* fire { trace(*(uint64_t *)arg0) }              EPID 1
	 * fire / *(uint32_t *)arg0 / { trace(arg1) }      EPID 2
	 * fire { trace(arg1) }                            EPID 3
	 * ERROR { trace(arg1..arg5) }                     EPID 4 */
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	{
		dof_actdesc_t a = harness_trace(difo_deref_arg0(&b, 8));
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, &a, 1), 0);
	}
	{
		dof_actdesc_t a = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG1, 8));
		uint32_t pred = difo_deref_arg0(&b, 4);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), pred,
			     dofb_actions(&b, &a, 1), 0);
	}
	{
		dof_actdesc_t a = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG1, 8));
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, &a, 1), 0);
	}
	error_clause(&b, false);
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 8192}};
		dofb_options(&b, opts, 1);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);

	testport_set_cpu(1);
	dtrace_probe(ids[0], 16, 0x5151, 0, 0, 0); /* 16: in the test port's NULL page */
	testport_set_cpu(0);

	n = harness_snap(st, 1, false, NULL);
	/* ERROR for EPID 1 (action 1), ERROR for EPID 2 (predicate), EPID 3's record */
	CHECK_EQ(n, 2 * 56 + 24);
	r = harness_data;
	CHECK_EQ(rd32(r), 4);
	CHECK_EQ(rd64(r + 16), 1);		   /* arg1: the EPID */
	CHECK_EQ(rd64(r + 24), 1);		   /* arg2: the first action */
	CHECK_EQ(rd64(r + 32), 4);		   /* arg3: DIF offset of the load */
	CHECK_EQ(rd64(r + 40), DTRACEFLT_BADADDR); /* arg4 */
	CHECK_EQ(rd64(r + 48), 16);		   /* arg5: the address */
	r += 56;
	CHECK_EQ(rd32(r), 4);
	CHECK_EQ(rd64(r + 16), 2);
	CHECK_EQ(rd64(r + 24), 0); /* the predicate */
	CHECK_EQ(rd64(r + 32), 4);
	CHECK_EQ(rd64(r + 40), DTRACEFLT_BADADDR);
	r += 56;
	CHECK_EQ(rd32(r), 3); /* the next clause ran */
	CHECK_EQ(rd64(r + 16), 0x5151);

	memset(&stat, 0, sizeof(stat));
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STATUS, &stat, NULL), 0);
	CHECK_EQ(stat.dtst_errors, 2);
	CHECK_EQ(stat.dtst_dblerrors, 0);
	dtrace_state_close(st);
	dofb_fini(&b);

	/* a fault in the ERROR clause itself is a double error */
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	{
		dof_actdesc_t a = harness_trace(difo_deref_arg0(&b, 8));
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, &a, 1), 0);
	}
	error_clause(&b, true);
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 8192}};
		dofb_options(&b, opts, 1);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
	dtrace_probe(ids[0], 16, 0, 0, 0, 0);
	CHECK_EQ(harness_snap(st, 0, false, NULL), 0); /* the ERROR record was dropped too */
	memset(&stat, 0, sizeof(stat));
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STATUS, &stat, NULL), 0);
	CHECK_EQ(stat.dtst_dblerrors, 1);
	CHECK_EQ(stat.dtst_errors, 2);
	dtrace_state_close(st);
	dofb_fini(&b);

	harness_teardown(p);
	return TEST_DONE();
}
