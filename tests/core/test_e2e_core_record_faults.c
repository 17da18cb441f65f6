/*
 * The ECB walker's own nofault sites: data recorded by reference is read
 * after its DIFO has run (a kernel string, a user string, kernel memory as
 * tracemem()/print() record it, user memory).  A fault injected at each site
 * drops the clause's record and fires ERROR with the action's index, arg3
 * -1 (no DIF instruction faulted), the port's fault code and the faulting
 * address; the next clause on the probe still records, and the state counts
 * the error.  Without a fault the same clauses record the data.
 */
#include "core_harness.h"

/* A DIFO returning arg0 typed as `t`. */
static uint32_t
difo_arg0_as(dofb_t *b, dtrace_diftype_t t)
{
	dif_instr_t text[] = {DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0, 1), DIF_INSTR_RET(1)};

	return dofb_difo(b, t, text, 2, NULL, 0, NULL, 0, NULL, 0);
}

typedef struct site {
	const char *name;
	uint8_t kind;	  /* DIF_TYPE_STRING or DIF_TYPE_CTF */
	uint8_t flags;	  /* DIF_TF_BYREF or DIF_TF_BYUREF */
	int space;	  /* where the fault is injected */
	int fault;	  /* what the port reports */
} site_t;

static const site_t sites[] = {
	{"kernel string", DIF_TYPE_STRING, DIF_TF_BYREF, DTRACE_AS_KERNEL, DTRACEFLT_BADADDR},
	{"user string", DIF_TYPE_STRING, DIF_TF_BYUREF, DTRACE_AS_USER, DTRACEFLT_UPRIV},
	{"kernel memory", DIF_TYPE_CTF, DIF_TF_BYREF, DTRACE_AS_KERNEL, DTRACEFLT_KPRIV},
	{"user memory", DIF_TYPE_CTF, DIF_TF_BYUREF, DTRACE_AS_USER, DTRACEFLT_BADALIGN},
};

static char text[32] = "recorded by reference";

static void
run_site(dtrace_id_t fire, const site_t *s)
{
	dtrace_diftype_t t;
	dtrace_status_t stat;
	dtrace_state_t *st;
	dof_actdesc_t a[5];
	uint32_t pd;
	int32_t cpu;
	uint64_t n;
	dofb_t b;
	char *r;

	memset(&t, 0, sizeof(t));
	t.dtdt_kind = s->kind;
	t.dtdt_flags = s->flags;
	/* a kernel string takes strsize; a user string carries its size, as
	 * DTrace's compiler gives it */
	t.dtdt_size = s->kind == DIF_TYPE_STRING ? (s->flags == DIF_TF_BYREF ? 0 : 32) : 16;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	/* EPID 1: fire { trace(arg2); trace(<arg0 by reference>) } */
	pd = dofb_probedesc(&b, "test", "", "", "fire");
	a[0] = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG2, 8));
	a[1] = harness_trace(difo_arg0_as(&b, t));
	dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 2), 0);
	/* EPID 2: fire { trace(arg1) } */
	a[0] = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG1, 8));
	dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 1), 0);
	/* EPID 3: ERROR { trace(arg1) ... trace(arg5) } */
	for (uint32_t v = DIF_VAR_ARG1; v <= DIF_VAR_ARG5; v++)
		a[v - DIF_VAR_ARG1] = harness_trace(dofb_difo_var(&b, v, 8));
	dofb_ecbdesc(&b, dofb_probedesc(&b, "dtrace", "", "", "ERROR"), DOF_SECIDX_NONE,
		     dofb_actions(&b, a, 5), 0);
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 8192}, {DTRACEOPT_STRSIZE, 32}};
		dofb_options(&b, opts, 2);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);

	/* no fault: the data is recorded (24 bytes header + arg2, then 16 or 32 data) */
	dtrace_probe(fire, (uintptr_t)text, 0x77, 0x99, 0, 0);
	n = harness_snap(st, 0, false, NULL);
	r = harness_data;
	CHECK_EQ(rd32(r), 1);
	CHECK_EQ(rd64(r + 16), 0x99);
	if (s->kind == DIF_TYPE_STRING)
		CHECK_STREQ(r + 24, text);
	else
		CHECK(memcmp(r + 24, text, 16) == 0);
	CHECK_EQ(n, (s->kind == DIF_TYPE_STRING ? 56u : 40u) + 24u);

	/* a fault in the middle of the data */
	testport_fault_range(s->space, (uintptr_t)text + 5, 1, s->fault);
	dtrace_probe(fire, (uintptr_t)text, 0x77, 0x99, 0, 0);
	testport_fault_clear();
	n = harness_snap(st, 0, false, NULL);
	CHECK_EQ(n, 56 + 24); /* the ERROR record, then EPID 2's */
	r = harness_data;
	CHECK_EQ(rd32(r), 3);
	CHECK_EQ(rd64(r + 16), 1);		      /* arg1: EPID 1 */
	CHECK_EQ(rd64(r + 24), 2);		      /* arg2: its second action */
	CHECK_EQ(rd64(r + 32), (uint64_t)-1);	      /* arg3: no DIF offset */
	CHECK_EQ(rd64(r + 40), (uint64_t)s->fault);   /* arg4 */
	CHECK_EQ(rd64(r + 48), (uintptr_t)text + 5); /* arg5 */
	CHECK_EQ(rd32(r + 56), 2);
	CHECK_EQ(rd64(r + 56 + 16), 0x77);
	memset(&stat, 0, sizeof(stat));
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STATUS, &stat, NULL), 0);
	CHECK_EQ(stat.dtst_errors, 1);
	if (test_failures != 0)
		fprintf(stderr, "  (site: %s)\n", s->name);

	dtrace_state_close(st);
	dofb_fini(&b);
}

int
main(void)
{
	static const char *const names[] = {"fire", NULL};
	dtrace_id_t ids[1];
	dtrace_provider_id_t p = harness_setup(1, names, ids);

	for (size_t i = 0; i < sizeof(sites) / sizeof(sites[0]); i++)
		run_site(ids[0], &sites[i]);
	harness_teardown(p);
	return TEST_DONE();
}
