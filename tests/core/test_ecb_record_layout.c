/*
 * The record layout of every kind of action, as DTrace lays it out and the
 * consumer decodes it (DTRACE_CTL_EPROBE): the 12-byte header, then each
 * action at its natural alignment with its size (trace by the DIFO's return
 * size, strings at strsize, printf-like actions with a format id, stack()
 * frames, ustack()/jstack() frames + pid + string space rounded to 8,
 * sym/mod 8 bytes, usym/umod/uaddr pid + address, exit's 4-byte status,
 * tracemem, libact records, nothing for speculate/stop/...), and
 * aggregations: the key laid out past the record with the aggregation id at
 * offset 4 of an 8-byte block, the value sizes of each function
 * (DTRACE_CTL_AGGDESC), an ECB with only an aggregation recording nothing.
 * Invalid action lists are refused at ENABLE; destructive actions make GO
 * fail with EACCES unless the destructive option is set.
 */
#include "core_harness.h"

static struct {
	dtrace_eprobedesc_t ep;
	dtrace_recdesc_t more[31];
} epd;

static dtrace_recdesc_t *
rec(int i)
{
	return (dtrace_recdesc_t *)(void *)((char *)&epd.ep +
					    offsetof(dtrace_eprobedesc_t, dtepd_rec)) +
	       i;
}

static int
eprobe(dtrace_state_t *st, dtrace_epid_t epid)
{
	memset(&epd, 0, sizeof(epd));
	epd.ep.dtepd_epid = epid;
	epd.ep.dtepd_nrecs = 32;
	return dtrace_ctl(st, DTRACE_CTL_EPROBE, &epd, NULL);
}

#define CHECK_REC(i, kind, off, sz, al)                                                            \
	do {                                                                                       \
		CHECK_EQ(rec(i)->dtrd_action, (kind));                                             \
		CHECK_EQ(rec(i)->dtrd_offset, (off));                                              \
		CHECK_EQ(rec(i)->dtrd_size, (sz));                                                 \
		CHECK_EQ(rec(i)->dtrd_alignment, (al));                                            \
	} while (0)

static uint32_t
string_difo(dofb_t *b)
{
	static const char strs[] = "hello";
	dif_instr_t text[] = {DIF_INSTR_SETS(0, 1), DIF_INSTR_RET(1)};

	return dofb_difo(b, dofb_type_string(0), text, 2, NULL, 0, strs, sizeof(strs), NULL, 0);
}

static void
test_every_action(void)
{
	dtrace_state_t *st;
	dofb_t b;
	dof_actdesc_t a[16];
	int n = 0, rv;
	uint32_t pd, fmt;
	static const char fmtstr[] = "\0%d\n\0sys %s";
	dtrace_fmtdesc_t fd;
	char fbuf[32];

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	pd = dofb_probedesc(&b, "test", "", "", "fire");
	fmt = dofb_add(&b, DOF_SECT_STRTAB, 1, 0, fmtstr, sizeof(fmtstr));
	a[n++] = dofb_act(DTRACEACT_DIFEXPR, dofb_difo_var(&b, DIF_VAR_ARG0, 1), 0);
	a[n++] = dofb_act(DTRACEACT_DIFEXPR, dofb_difo_var(&b, DIF_VAR_ARG0, 8), 0);
	a[n++] = dofb_act(DTRACEACT_DIFEXPR, string_difo(&b), 0);
	a[n] = dofb_act(DTRACEACT_PRINTF, dofb_difo_var(&b, DIF_VAR_ARG1, 4), 1);
	a[n++].dofa_strtab = fmt;
	a[n++] = dofb_act(DTRACEACT_STACK, DOF_SECIDX_NONE, 0);
	a[n++] = dofb_act(DTRACEACT_USTACK, DOF_SECIDX_NONE, DTRACE_USTACK_ARG(5, 10));
	a[n++] = dofb_act(DTRACEACT_JSTACK, DOF_SECIDX_NONE, 0);
	a[n++] = dofb_act(DTRACEACT_SYM, dofb_difo_var(&b, DIF_VAR_ARG0, 8), 0);
	a[n++] = dofb_act(DTRACEACT_UADDR, dofb_difo_var(&b, DIF_VAR_ARG0, 8), 0);
	a[n++] = dofb_act(DTRACEACT_EXIT, dofb_difo_const(&b, 3, 4), 0);
	a[n++] = dofb_act(DTRACEACT_LIBACT, dofb_difo_const(&b, 1, 8), DT_ACT_CLEAR);
	a[n] = dofb_act(DTRACEACT_SYSTEM, dofb_difo_var(&b, DIF_VAR_ARG1, 8), 5);
	a[n++].dofa_strtab = fmt;
	a[n++] = dofb_act(DTRACEACT_STOP, DOF_SECIDX_NONE, 0);
	dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, (size_t)n), 0);
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 65536}, {DTRACEOPT_STRSIZE, 128}};
		dofb_options(&b, opts, 2);
	}
	CHECK_EQ(harness_enable_dof(st, &b, &rv), 0);
	CHECK_EQ(rv, 1);

	CHECK_EQ(eprobe(st, 1), 0);
	CHECK_EQ(epd.ep.dtepd_nrecs, 13);
	CHECK_REC(0, DTRACEACT_DIFEXPR, 12, 1, 1);
	CHECK_REC(1, DTRACEACT_DIFEXPR, 16, 8, 8);
	CHECK_REC(2, DTRACEACT_DIFEXPR, 24, 128, 8);   /* strsize */
	CHECK_REC(3, DTRACEACT_PRINTF, 152, 4, 4);
	CHECK_EQ(rec(3)->dtrd_format, 1);
	CHECK_REC(4, DTRACEACT_STACK, 160, 20 * 8, 8); /* stackframes default */
	CHECK_EQ(rec(4)->dtrd_arg, 20);
	CHECK_REC(5, DTRACEACT_USTACK, 320, 64, 8);    /* (5 + 1) * 8 + 10 -> 64 */
	/* jstack: jstackframes 50, jstackstrsize 512: 51 * 8 + 512 = 920 */
	CHECK_REC(6, DTRACEACT_JSTACK, 384, 920, 8);
	CHECK_EQ(rec(6)->dtrd_arg, DTRACE_USTACK_ARG(50, 512));
	CHECK_REC(7, DTRACEACT_SYM, 1304, 8, 8);
	CHECK_REC(8, DTRACEACT_UADDR, 1312, 16, 8);
	CHECK_REC(9, DTRACEACT_EXIT, 1328, 4, 4);
	CHECK_REC(10, DTRACEACT_LIBACT, 1336, 8, 8);
	CHECK_EQ(rec(10)->dtrd_arg, DT_ACT_CLEAR);
	CHECK_REC(11, DTRACEACT_SYSTEM, 1344, 8, 8);
	CHECK_EQ(rec(11)->dtrd_format, 2);
	CHECK_REC(12, DTRACEACT_STOP, 1352, 0, 1);
	CHECK_EQ(epd.ep.dtepd_size, 1352);

	/* the format strings behind the ids */
	memset(&fd, 0, sizeof(fd));
	fd.dtfd_format = 2;
	fd.dtfd_length = 2;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_FORMAT, &fd, NULL), 0);
	CHECK_EQ(fd.dtfd_length, 7); /* too small: the size it takes */
	fd.dtfd_string = fbuf;
	fd.dtfd_length = sizeof(fbuf);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_FORMAT, &fd, NULL), 0);
	CHECK_STREQ(fbuf, "sys %s");
	fd.dtfd_format = 1;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_FORMAT, &fd, NULL), 0);
	CHECK_STREQ(fbuf, "%d\n");
	fd.dtfd_format = 3;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_FORMAT, &fd, NULL), DTRACE_EINVAL);
	fd.dtfd_format = 0;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_FORMAT, &fd, NULL), DTRACE_EINVAL);

	/* stop() is destructive: GO refuses without the destructive option */
	{
		int32_t cpu;
		CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), DTRACE_EACCES);
	}
	dtrace_state_close(st);
	dofb_fini(&b);
}

/* The value size of each aggregating function, through AGGDESC. */
static void
test_aggregations(void)
{
	static const struct {
		uint32_t kind;
		uint64_t arg;
		uint32_t size;
	} fns[] = {
		{DTRACEAGG_COUNT, 0, 8},
		{DTRACEAGG_SUM, 0, 8},
		{DTRACEAGG_MIN, 0, 8},
		{DTRACEAGG_MAX, 0, 8},
		{DTRACEAGG_AVG, 0, 16},
		{DTRACEAGG_STDDEV, 0, 32},
		{DTRACEAGG_QUANTIZE, 0, DTRACE_QUANTIZE_NBUCKETS * 8},
		{DTRACEAGG_LQUANTIZE, DTRACE_LQUANTIZE_ARG(10, 10, 0), (10 + 3) * 8},
		{DTRACEAGG_LLQUANTIZE, DTRACE_LLQUANTIZE_ARG(10, 0, 6, 20), 0},
	};
	dtrace_state_t *st;
	dofb_t b;
	int rv;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		/* @[arg0] = fn(arg1) */
		uint32_t pd = dofb_probedesc(&b, "test", "", "", "fire");
		dof_actdesc_t a[2];

		a[0] = dofb_act(DTRACEACT_DIFEXPR, dofb_difo_var(&b, DIF_VAR_ARG0, 8), 0);
		a[1] = dofb_act(fns[i].kind, dofb_difo_var(&b, DIF_VAR_ARG1, 8), fns[i].arg);
		a[1].dofa_ntuple = 1;
		dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, 2), i);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 65536}, {DTRACEOPT_AGGSIZE, 65536}};
		dofb_options(&b, opts, 2);
	}
	CHECK_EQ(harness_enable_dof(st, &b, &rv), 0);
	CHECK_EQ(rv, sizeof(fns) / sizeof(fns[0]));

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		struct {
			dtrace_aggdesc_t ad;
			dtrace_recdesc_t more[3];
		} agd;
		dtrace_recdesc_t *r = (dtrace_recdesc_t *)(void *)((char *)&agd.ad +
								   offsetof(dtrace_aggdesc_t,
									    dtagd_rec));
		uint32_t vsize = fns[i].size;

		if (fns[i].kind == DTRACEAGG_LLQUANTIZE)
			vsize = (uint32_t)(dtrace_aggregate_llquantize_bucket(10, 0, 6, 20,
									      INT64_MAX) +
					   2) *
				8;
		/* an aggregation alone records nothing in the principal buffer */
		CHECK_EQ(eprobe(st, (dtrace_epid_t)i + 1), 0);
		CHECK_EQ(epd.ep.dtepd_size, 0);
		CHECK_EQ(epd.ep.dtepd_nrecs, 0);

		memset(&agd, 0, sizeof(agd));
		agd.ad.dtagd_id = (dtrace_aggid_t)i + 1;
		agd.ad.dtagd_nrecs = 4;
		CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_AGGDESC, &agd, NULL), 0);
		CHECK_EQ(agd.ad.dtagd_epid, i + 1);
		CHECK_EQ(agd.ad.dtagd_nrecs, 2);
		/* key record at 4 past the aggregation id, value after it */
		CHECK_EQ(r[0].dtrd_action, DTRACEACT_DIFEXPR);
		CHECK_EQ(r[0].dtrd_offset, 8);
		CHECK_EQ(r[0].dtrd_size, 8);
		CHECK_EQ(r[1].dtrd_action, fns[i].kind);
		CHECK_EQ(r[1].dtrd_offset, 16);
		CHECK_EQ(r[1].dtrd_size, vsize);
		CHECK_EQ(agd.ad.dtagd_size, 16 + vsize);
	}
	{
		dtrace_aggdesc_t ad;
		memset(&ad, 0, sizeof(ad));
		ad.dtagd_id = 99;
		CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_AGGDESC, &ad, NULL), DTRACE_EINVAL);
	}
	dtrace_state_close(st);
	dofb_fini(&b);
}

/* Action lists DTrace refuses when it builds the ECB. */
static void
test_refused_lists(void)
{
	static const struct {
		const char *why;
		uint32_t kind[3];
		uint32_t ntuple;
		uint64_t arg;
	} bad[] = {
		{"aggregation without a key", {DTRACEAGG_COUNT, 0, 0}, 0, 0},
		{"key longer than the actions", {DTRACEACT_DIFEXPR, DTRACEAGG_COUNT, 0}, 2, 0},
		{"lquantize with no levels", {DTRACEACT_DIFEXPR, DTRACEAGG_LQUANTIZE, 0}, 1,
		 DTRACE_LQUANTIZE_ARG(10, 0, 0)},
		{"llquantize factor 1", {DTRACEACT_DIFEXPR, DTRACEAGG_LLQUANTIZE, 0}, 1,
		 DTRACE_LLQUANTIZE_ARG(1, 0, 6, 20)},
		{"llquantize steps not a multiple", {DTRACEACT_DIFEXPR, DTRACEAGG_LLQUANTIZE, 0}, 1,
		 DTRACE_LLQUANTIZE_ARG(10, 0, 6, 15)},
		{"speculate after data", {DTRACEACT_DIFEXPR, DTRACEACT_SPECULATE, 0}, 0, 0},
		{"two commits", {DTRACEACT_COMMIT, DTRACEACT_COMMIT, 0}, 0, 0},
		{"data after commit", {DTRACEACT_COMMIT, DTRACEACT_DIFEXPR, 0}, 0, 0},
		{"aggregation after speculate", {DTRACEACT_SPECULATE, DTRACEACT_DIFEXPR,
						 DTRACEAGG_COUNT},
		 1, 0},
		{"unknown action", {0x0999, 0, 0}, 0, 0},
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		dtrace_state_t *st;
		dof_actdesc_t a[3];
		dofb_t b;
		int n = 0, rv;
		uint32_t pd;

		CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
		dofb_init(&b);
		pd = dofb_probedesc(&b, "test", "", "", "fire");
		for (int k = 0; k < 3 && bad[i].kind[k] != 0; k++) {
			uint32_t kind = bad[i].kind[k];
			uint32_t difo = dofb_difo_var(&b, DIF_VAR_ARG0, 8);

			a[n] = dofb_act(kind, difo, DTRACEACT_ISAGG(kind) ? bad[i].arg : 0);
			if (DTRACEACT_ISAGG(kind))
				a[n].dofa_ntuple = bad[i].ntuple;
			n++;
		}
		dofb_ecbdesc(&b, pd, DOF_SECIDX_NONE, dofb_actions(&b, a, (size_t)n), 0);
		dofb_finish(&b);
		rv = dtrace_ctl(st, DTRACE_CTL_ENABLE, b.image, &rv);
		if (rv != DTRACE_EINVAL)
			fprintf(stderr, "refused list \"%s\": %d\n", bad[i].why, rv);
		CHECK_EQ(rv, DTRACE_EINVAL);
		CHECK(dtrace_state_errmsg(st) != NULL);
		dtrace_state_close(st);
		dofb_fini(&b);
	}
}

int
main(void)
{
	static const char *const names[] = {"fire", NULL};
	dtrace_id_t fire;
	dtrace_provider_id_t p = harness_setup(1, names, &fire);

	test_every_action();
	test_aggregations();
	test_refused_lists();

	harness_teardown(p);
	return TEST_DONE();
}
