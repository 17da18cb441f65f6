/*
 * Every cause of lost data, end to end through a consumer state built from
 * DOF, reported where DTrace reports it:
 *   - a full principal buffer: BUFSNAP's dtbd_drops, counted per switch (the
 *     next snapshot starts again from 0), nothing in STATUS;
 *   - a full fill-policy buffer: STATUS dtst_filled, one per CPU that filled;
 *   - a full aggregation buffer: AGGSNAP's dtbd_drops, per switch;
 *   - dynamic-variable exhaustion: dtst_dyndrops (empty), dtst_dyndrops_dirty
 *     (freed variables awaiting the cleaner), dtst_dyndrops_rinsing (the
 *     cleaner between its two passes);
 *   - speculations: dtst_specdrops_unavail (none free), dtst_specdrops_busy
 *     (the only ones are being committed), dtst_specdrops (records a full
 *     speculation buffer refused, once committed);
 *   - faults: dtst_errors, and dtst_dblerrors for a fault in an ERROR clause.
 * STATUS counters are cumulative, as DTrace's DTRACEIOC_STATUS: reading them
 * resets nothing, a snapshot moves a buffer's error count into the state's
 * without counting it twice, and each new drop adds to what was there (the
 * consumer reports differences between two readings).  After each phase the
 * whole dtrace_status_t is compared, so a drop counted in the wrong field
 * fails.
 */
#include "core_harness.h"

enum { P_TR, P_AGG, P_TLS, P_TLSFREE, P_SPEC, P_SPECREC, P_COMMIT, P_FAULT, P_NPROBES };

static const char *const probe_names[] = {"tr",	     "agg",	"tls",	  "tlsfree",
					  "spec",    "specrec", "commit", "fault", NULL};
static dtrace_id_t ids[P_NPROBES];

#define TLS_VAR 0x500

/* Compare every field of STATUS with `want`; report each difference. */
static void
status_is(dtrace_state_t *st, const dtrace_status_t *want, int line)
{
	dtrace_status_t got;
	static const struct {
		const char *name;
		size_t off;
	} f[] = {
#define F(x) {#x, offsetof(dtrace_status_t, x)}
		F(dtst_dyndrops),     F(dtst_dyndrops_rinsing),	 F(dtst_dyndrops_dirty),
		F(dtst_specdrops),    F(dtst_specdrops_busy),	 F(dtst_specdrops_unavail),
		F(dtst_errors),	      F(dtst_filled),		 F(dtst_stkstroverflows),
		F(dtst_dblerrors),
#undef F
	};

	memset(&got, 0xa5, sizeof(got));
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STATUS, &got, NULL), 0);
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		uint64_t g = rd64((const char *)&got + f[i].off);
		uint64_t w = rd64((const char *)want + f[i].off);

		test_checks++;
		if (g != w) {
			test_failures++;
			fprintf(stderr, "line %d: %s is %llu, expected %llu\n", line, f[i].name,
				(unsigned long long)g, (unsigned long long)w);
		}
	}
	CHECK_EQ(got.dtst_killed, want->dtst_killed);
	CHECK_EQ(got.dtst_exiting, want->dtst_exiting);
}
#define STATUS_IS(st, want) status_is(st, want, __LINE__)

/* trace(*(uint64_t *)argN) */
static uint32_t
difo_deref(dofb_t *b, uint32_t var)
{
	dif_instr_t text[] = {DIF_INSTR_LDV(DIF_OP_LDGS, var, 1), DIF_INSTR_LOAD(DIF_OP_LDX, 1, 2),
			      DIF_INSTR_RET(2)};

	return dofb_difo(b, dofb_type_int(8), text, 3, NULL, 0, NULL, 0, NULL, 0);
}

/* self->x = value of `reg_from` (arg0), or 0 when `clear` */
static uint32_t
difo_tls_store(dofb_t *b, bool clear)
{
	dtrace_difv_t v;
	dif_instr_t set[] = {DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0, 1),
			     DIF_INSTR_STV(DIF_OP_STTS, TLS_VAR, 1), DIF_INSTR_RET(1)};
	dif_instr_t del[] = {DIF_INSTR_STV(DIF_OP_STTS, TLS_VAR, 0), DIF_INSTR_RET(0)};

	memset(&v, 0, sizeof(v));
	v.dtdv_id = TLS_VAR;
	v.dtdv_scope = DIFV_SCOPE_THREAD;
	v.dtdv_kind = DIFV_KIND_SCALAR;
	v.dtdv_type = dofb_type_int(8);
	if (clear)
		return dofb_difo(b, dofb_type_int(0), del, 2, NULL, 0, NULL, 0, &v, 1);
	return dofb_difo(b, dofb_type_int(0), set, 3, NULL, 0, NULL, 0, &v, 1);
}

static void
clause(dofb_t *b, const char *name, const dof_actdesc_t *a, size_t n)
{
	dofb_ecbdesc(b, dofb_probedesc(b, name[0] == 'E' ? "dtrace" : "test", "", "", name),
		     DOF_SECIDX_NONE, dofb_actions(b, a, n), 0);
}

static void
build(dofb_t *b)
{
	dif_instr_t spec[] = {DIF_INSTR_CALL(DIF_SUBR_SPECULATION, 1), DIF_INSTR_RET(1)};
	dof_actdesc_t a[3];

	dofb_init(b);
	/* tr { trace(arg0) } */
	a[0] = harness_trace(dofb_difo_var(b, DIF_VAR_ARG0, 8));
	clause(b, "tr", a, 1);
	/* agg { @[arg0] = count() } */
	a[0] = dofb_act(DTRACEACT_DIFEXPR, dofb_difo_const(b, 1, 8), 0);
	a[1] = harness_trace(dofb_difo_var(b, DIF_VAR_ARG0, 8));
	a[2] = dofb_act(DTRACEAGG_COUNT, DOF_SECIDX_NONE, 0);
	a[2].dofa_ntuple = 2;
	clause(b, "agg", a, 3);
	/* tls { self->x = arg0 }  tlsfree { self->x = 0 } */
	a[0] = dofb_act(DTRACEACT_DIFEXPR, difo_tls_store(b, false), 0);
	clause(b, "tls", a, 1);
	a[0] = dofb_act(DTRACEACT_DIFEXPR, difo_tls_store(b, true), 0);
	clause(b, "tlsfree", a, 1);
	/* spec { trace(speculation()) } */
	a[0] = harness_trace(dofb_difo(b, dofb_type_int(8), spec, 2, NULL, 0, NULL, 0, NULL, 0));
	clause(b, "spec", a, 1);
	/* specrec { speculate(arg0); trace(arg1) }  commit { commit(arg0) } */
	a[0] = dofb_act(DTRACEACT_SPECULATE, dofb_difo_var(b, DIF_VAR_ARG0, 8), 0);
	a[1] = harness_trace(dofb_difo_var(b, DIF_VAR_ARG1, 8));
	clause(b, "specrec", a, 2);
	a[0] = dofb_act(DTRACEACT_COMMIT, dofb_difo_var(b, DIF_VAR_ARG0, 8), 0);
	clause(b, "commit", a, 1);
	/* fault { trace(*(uint64_t *)arg0) }  ERROR { trace(*(uint64_t *)arg5) } */
	a[0] = harness_trace(difo_deref(b, DIF_VAR_ARG0));
	clause(b, "fault", a, 1);
	a[0] = harness_trace(difo_deref(b, DIF_VAR_ARG5));
	clause(b, "ERROR", a, 1);
	{
		const uint64_t opts[][2] = {
			{DTRACEOPT_BUFSIZE, 256},     {DTRACEOPT_AGGSIZE, 512},
			{DTRACEOPT_DYNVARSIZE, 4096}, {DTRACEOPT_NSPEC, 1},
			{DTRACEOPT_SPECSIZE, 64},     {DTRACEOPT_CLEANRATE, 1000000},
		};
		dofb_options(b, opts, sizeof(opts) / sizeof(opts[0]));
	}
}

static void
fire(int probe, uint64_t a0, uint64_t a1)
{
	dtrace_probe(ids[probe], a0, a1, 0, 0, 0);
}

/* BUFSNAP or AGGSNAP of CPU `cpu`: the bytes, drops into *drops. */
static uint64_t
snap(dtrace_state_t *st, uint32_t cpu, bool agg, uint64_t *drops)
{
	dtrace_bufdesc_t d;
	uint64_t n = harness_snap(st, cpu, agg, &d);

	*drops = d.dtbd_drops;
	return n;
}

static uint32_t
free_chunks(const dtrace_dstate_t *ds)
{
	uint32_t n = 0;

	for (uint32_t c = 0; c < ds->dtds_ncpus; c++)
		for (const dtrace_dynvar_t *dv = ds->dtds_percpu[c].dtdsc_free; dv != NULL;
		     dv = dv->dtdv_next)
			n++;
	return n;
}

static void
clean(dtrace_state_t *st)
{
	CHECK(testport_fire_timers((uint64_t)st->dts_options[DTRACEOPT_CLEANRATE]) >= 1);
}

static void
test_every_cause(void)
{
	dtrace_state_t *st;
	dtrace_status_t want;
	dtrace_dstate_t *ds;
	dofb_t b;
	int32_t cpu;
	uint64_t n, drops, word = 0x1234;
	uint32_t chunks, i;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	build(&b);
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
	CHECK_EQ(cpu, 0);
	memset(&want, 0, sizeof(want));
	STATUS_IS(st, &want);

	/* Principal buffer: 256 bytes hold ten 24-byte records. */
	for (i = 0; i < 14; i++)
		fire(P_TR, i, 0);
	n = snap(st, 0, false, &drops);
	CHECK_EQ(n, 240);
	CHECK_EQ(drops, 4);
	STATUS_IS(st, &want); /* not a STATUS counter */
	fire(P_TR, 99, 0);
	n = snap(st, 0, false, &drops);
	CHECK_EQ(n, 24);
	CHECK_EQ(drops, 0); /* counted per switch */

	/* Aggregation buffer: distinct keys until one does not fit. */
	for (i = 0; i < 40; i++)
		fire(P_AGG, 1000 + i, 0);
	fire(P_AGG, 1000, 0); /* an existing key still counts */
	n = snap(st, 0, true, &drops);
	/* entries: aggregation id, pad, @'s id, arg0, the count */
	CHECK(n != 0 && n % 32 == 0);
	CHECK(drops != 0);
	CHECK_EQ(n / 32 + drops, 40);
	for (uint64_t off = 0; off < n; off += 32)
		if (rd64(harness_data + off + 16) == 1000)
			CHECK_EQ(rd64(harness_data + off + 24), 2);
	STATUS_IS(st, &want);
	fire(P_AGG, 7, 0);
	CHECK_EQ(snap(st, 0, true, &drops), 32);
	CHECK_EQ(drops, 0);

	/* Dynamic variables, empty: one thread-local per thread until none is left. */
	ds = &st->dts_vstate.dtvs_dynvars;
	chunks = free_chunks(ds);
	CHECK(chunks >= 4);
	for (i = 0; i < chunks + 3; i++) {
		testport_switch_thread(500 + i);
		fire(P_TLS, i + 1, 0);
	}
	want.dtst_dyndrops = 3;
	STATUS_IS(st, &want);
	STATUS_IS(st, &want); /* reading resets nothing */

	/*
	 * Dirty: free one, let the cleaner make it reusable, reuse it, free
	 * another; the store is CLEAN with only a dirty chunk, so the next
	 * allocation drops as dirty.
	 */
	testport_switch_thread(500);
	fire(P_TLSFREE, 0, 0);
	clean(st);
	testport_switch_thread(900);
	fire(P_TLS, 1, 0);
	STATUS_IS(st, &want);
	testport_switch_thread(501);
	fire(P_TLSFREE, 0, 0);
	testport_switch_thread(901);
	fire(P_TLS, 1, 0);
	want.dtst_dyndrops_dirty = 1;
	STATUS_IS(st, &want);
	fire(P_TLS, 1, 0);
	want.dtst_dyndrops_dirty = 2;
	STATUS_IS(st, &want);

	/*
	 * Rinsing: the cleaner's first pass has moved the dirty list aside and
	 * it waits in its cross-call before making it clean.  The test port runs
	 * cross-calls synchronously, so that moment is made by hand here, as
	 * dtrace_dynvar_clean() leaves it; the probe then finds only rinsing
	 * chunks.
	 */
	clean(st); /* 501's chunk is clean, the store CLEAN again */
	testport_switch_thread(902);
	fire(P_TLS, 1, 0);
	testport_switch_thread(502);
	fire(P_TLSFREE, 0, 0);
	{
		dtrace_dstate_percpu_t *p0 = &ds->dtds_percpu[0];

		CHECK(p0->dtdsc_dirty != NULL);
		p0->dtdsc_rinsing = p0->dtdsc_dirty;
		p0->dtdsc_dirty = NULL;
		testport_switch_thread(903);
		fire(P_TLS, 1, 0);
		want.dtst_dyndrops_rinsing = 1;
		STATUS_IS(st, &want);
		/* the cleaner's second pass */
		p0->dtdsc_clean = p0->dtdsc_rinsing;
		p0->dtdsc_rinsing = NULL;
		ds->dtds_percpu[0].dtdsc_state = DTRACE_DSTATE_CLEAN;
	}
	fire(P_TLS, 1, 0); /* thread 903 gets 502's chunk */
	fire(P_TLS, 2, 0); /* an existing variable is no allocation */
	STATUS_IS(st, &want);

	/* Speculations: nspec is 1. */
	fire(P_SPEC, 0, 0); /* speculation 1 */
	fire(P_SPEC, 0, 0); /* none free */
	want.dtst_specdrops_unavail = 1;
	STATUS_IS(st, &want);
	n = snap(st, 0, false, &drops);
	CHECK_EQ(n, 48);
	CHECK_EQ(rd64(harness_data + 16), 1);
	CHECK_EQ(rd64(harness_data + 24 + 16), 0);

	/* 64-byte speculation buffers hold two records; three are refused. */
	for (i = 0; i < 5; i++)
		fire(P_SPECREC, 1, 100 + i);
	STATUS_IS(st, &want); /* counted when committed */
	/* ...and speculation 1 gets records on CPU 1 too */
	testport_set_cpu(1);
	fire(P_SPECREC, 1, 200);
	testport_set_cpu(0);
	fire(P_COMMIT, 1, 0); /* ACTIVEMANY: committing until the cleaner ran */
	want.dtst_specdrops = 3;
	STATUS_IS(st, &want);
	fire(P_SPEC, 0, 0); /* the only speculation is busy */
	want.dtst_specdrops_busy = 1;
	STATUS_IS(st, &want);
	clean(st);
	n = snap(st, 1, false, &drops);
	CHECK_EQ(n, 24); /* CPU 1's part, committed by the cleaner */
	CHECK_EQ(rd64(harness_data + 16), 200);
	n = snap(st, 0, false, &drops);
	CHECK_EQ(n, 3 * 24); /* two committed, then speculation()'s 0 */
	CHECK_EQ(rd64(harness_data + 16), 100);
	CHECK_EQ(rd64(harness_data + 24 + 16), 101);
	CHECK_EQ(rd64(harness_data + 48 + 16), 0);
	fire(P_SPEC, 0, 0); /* free again */
	STATUS_IS(st, &want);
	CHECK_EQ(snap(st, 0, false, &drops), 24);
	CHECK_EQ(rd64(harness_data + 16), 1);

	/*
	 * Faults.  The first load fails (injected) but ERROR's load of the same
	 * address works: one error, ERROR's record.  A load from the NULL page
	 * fails in both: two errors, one of them double.
	 */
	testport_fault_nth(1, DTRACEFLT_BADADDR);
	fire(P_FAULT, (uint64_t)(uintptr_t)&word, 0);
	testport_fault_clear();
	want.dtst_errors = 1;
	STATUS_IS(st, &want);
	n = snap(st, 0, false, &drops);
	CHECK_EQ(n, 24);
	CHECK_EQ(rd64(harness_data + 16), 0x1234);
	STATUS_IS(st, &want); /* the snapshot moved the count, did not double it */
	fire(P_FAULT, 16, 0);
	want.dtst_errors = 3;
	want.dtst_dblerrors = 1;
	STATUS_IS(st, &want);
	testport_set_cpu(1);
	fire(P_FAULT, 16, 0);
	testport_set_cpu(0);
	want.dtst_errors = 5;
	want.dtst_dblerrors = 2;
	STATUS_IS(st, &want);
	CHECK_EQ(snap(st, 1, false, &drops), 0);
	CHECK_EQ(snap(st, 0, false, &drops), 0);
	STATUS_IS(st, &want);

	/*
	 * Again: every counter only grows.  (The fault first: a clause on a
	 * full buffer cannot reserve its record, so it would not run at all.)
	 */
	fire(P_FAULT, 16, 0);
	for (i = 0; i < 12; i++)
		fire(P_TR, i, 0);
	testport_switch_thread(950);
	fire(P_TLS, 1, 0);
	want.dtst_errors = 7;
	want.dtst_dblerrors = 3;
	want.dtst_dyndrops += 1;
	STATUS_IS(st, &want);
	n = snap(st, 0, false, &drops);
	CHECK_EQ(n, 240);
	CHECK_EQ(drops, 2);

	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL), 0);
	dtrace_state_close(st);
	dofb_fini(&b);
}

/* Fill policy: dtst_filled counts the CPUs whose buffer filled. */
static void
test_filled(void)
{
	dtrace_state_t *st;
	dtrace_status_t want;
	dofb_t b;
	int32_t cpu;
	dof_actdesc_t a = {0};

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	a = harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8));
	clause(&b, "tr", &a, 1);
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 256},
					    {DTRACEOPT_BUFPOLICY, DTRACEOPT_BUFPOLICY_FILL}};
		dofb_options(&b, opts, 2);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
	memset(&want, 0, sizeof(want));
	for (int i = 0; i < 20; i++)
		fire(P_TR, (uint64_t)i, 0);
	want.dtst_filled = 1;
	STATUS_IS(st, &want);
	fire(P_TR, 0, 0);
	STATUS_IS(st, &want); /* a CPU counts once */
	testport_set_cpu(1);
	fire(P_TR, 1, 0);
	STATUS_IS(st, &want);
	for (int i = 0; i < 20; i++)
		fire(P_TR, (uint64_t)i, 0);
	testport_set_cpu(0);
	want.dtst_filled = 2;
	STATUS_IS(st, &want);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL), 0);
	dtrace_state_close(st);
	dofb_fini(&b);
}

int
main(void)
{
	dtrace_provider_id_t p = harness_setup(2, probe_names, ids);

	test_every_cause();
	test_filled();
	harness_teardown(p);
	return TEST_DONE();
}
