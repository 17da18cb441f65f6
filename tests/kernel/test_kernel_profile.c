/*
 * kernel/profile.c, the profile provider's OS-neutral half, on the test
 * port with a fake OS half: probe names as DTrace accepts them (units,
 * rates, the 200 us floor, overflow), DTrace's default probes, probes made
 * on demand from a consumer's description, enable/disable reaching the OS
 * half, and the arguments of a firing (kernel PC, user PC, and for
 * profile-N how late it fires against its CPU's schedule).
 */
#include "core_harness.h"
#include "profile.h"
#include "testport.h"

static int starts, stops;
static kprof_t *started;

static int
fake_start(kprof_t *kp)
{
	starts++;
	started = kp;
	return 0;
}

static void
fake_stop(kprof_t *kp)
{
	(void)kp;
	stops++;
}

static const kprof_ops_t fake_ops = {fake_start, fake_stop, 2};

static void
test_names(void)
{
	static const struct {
		const char *name;
		bool ok;
		int kind;
		uint64_t ns;
	} cases[] = {
		{"profile-97", true, KPROF_PROFILE, 1000000000ull / 97},
		{"profile-97hz", true, KPROF_PROFILE, 1000000000ull / 97},
		{"tick-1sec", true, KPROF_TICK, 1000000000ull},
		{"tick-1s", true, KPROF_TICK, 1000000000ull},
		{"tick-10ms", true, KPROF_TICK, 10000000ull},
		{"profile-200us", true, KPROF_PROFILE, 200000ull},
		{"profile-199us", false, 0, 0},
		{"profile-5001", false, 0, 0},
		{"tick-2min", true, KPROF_TICK, 120000000000ull},
		{"tick-1day", true, KPROF_TICK, 86400000000000ull},
		{"tick-0", false, 0, 0},
		{"tick-", false, 0, 0},
		{"tick-5parsecs", false, 0, 0},
		{"profile-99999999999999999999", false, 0, 0},
		{"tick-999999999999day", false, 0, 0},
		{"sample-97", false, 0, 0},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int kind = -1;
		uint64_t ns = 0;
		bool ok = kprof_parse(cases[i].name, &kind, &ns);

		if (ok != cases[i].ok)
			fprintf(stderr, "%s: parsed %d\n", cases[i].name, ok);
		CHECK_EQ(ok, cases[i].ok);
		if (ok && cases[i].ok) {
			CHECK_EQ(kind, cases[i].kind);
			CHECK_EQ(ns, cases[i].ns);
		}
	}
}

static dtrace_id_t
match(dtrace_state_t *st, const char *name)
{
	dtrace_probedesc_t pd;

	memset(&pd, 0, sizeof(pd));
	strcpy(pd.dtpd_provider, "profile");
	strcpy(pd.dtpd_name, name);
	return dtrace_ctl(st, DTRACE_CTL_PROBEMATCH, &pd, NULL) == 0 ? pd.dtpd_id : 0;
}

static void
test_provider(void)
{
	dtrace_state_t *st;
	dtrace_id_t id;
	dofb_t b;
	int32_t cpu;
	uint64_t n;

	CHECK_EQ(nop_start(2), 0);
	CHECK_EQ(kprof_register(&fake_ops), 0);
	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	CHECK(match(st, "profile-97") != 0); /* a default */
	CHECK(match(st, "tick-5000") != 0);
	CHECK(match(st, "tick-3sec") != 0); /* made when asked for */
	CHECK_EQ(match(st, "tick-3parsecs"), 0);

	/* enable profile-1000 with trace(arg0), trace(arg1), trace(arg2); as
	 * dtrace(1) does, list it first so the provider makes it */
	CHECK(match(st, "profile-1000") != 0);
	dofb_init(&b);
	{
		dof_actdesc_t a[3] = {harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8)),
				      harness_trace(dofb_difo_var(&b, DIF_VAR_ARG1, 8)),
				      harness_trace(dofb_difo_var(&b, DIF_VAR_ARG2, 8))};
		dofb_ecbdesc(&b, dofb_probedesc(&b, "profile", "", "", "profile-1000"),
			     DOF_SECIDX_NONE, dofb_actions(&b, a, 3), 0);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096}};
		dofb_options(&b, opts, 1);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);
	CHECK_EQ(starts, 1);
	if (started == NULL)
		return;
	id = started->kp_id;
	CHECK_EQ(started->kp_interval, 1000000ull);

	testport_set_cpu(1);
	testport_set_time(5000000);
	kprof_fire(started, 1, 0xffff0000, 0); /* first: on time */
	testport_advance_time(1300000);	       /* 300 us late */
	kprof_fire(started, 1, 0, 0x4000);
	testport_advance_time(5000000);	       /* overrun: schedule restarts */
	kprof_fire(started, 1, 0x10, 0);
	n = harness_snap(st, 1, false, NULL);
	CHECK_EQ(n, 3 * 40); /* header, then arg0, arg1, arg2 at 16, 24, 32 */
	CHECK_EQ(rd64(harness_data + 16), 0xffff0000);
	CHECK_EQ(rd64(harness_data + 24), 0);
	CHECK_EQ(rd64(harness_data + 32), 0);
	CHECK_EQ(rd64(harness_data + 40 + 16), 0);
	CHECK_EQ(rd64(harness_data + 40 + 24), 0x4000);
	CHECK_EQ(rd64(harness_data + 40 + 32), 300000);
	CHECK_EQ(rd64(harness_data + 80 + 32), 4300000); /* due at 7.0 ms, fired at 11.3 */
	(void)id;

	dtrace_state_close(st);
	CHECK_EQ(stops, 1);
	dofb_fini(&b);
	testport_set_cpu(0);
	CHECK_EQ(kprof_unregister(), 0);
	CHECK_EQ(nop_stop(), 0);
}

int
main(void)
{
	test_names();
	test_provider();
	return TEST_DONE();
}
