/*
 * Aggregations and speculations through the ECB walker.
 *
 * @[arg0] = count() and @q[arg0] = sum(arg1) reduce per CPU in the
 * aggregation buffer: AGGSNAP returns one entry per key, laid out as AGGDESC
 * describes (aggregation id, key records, value), and the principal buffer
 * gets nothing.
 *
 * start { trace(speculation()) } fire { speculate(1); trace(arg0) }
 * commit { commit(1) } discard { discard(1) }: a speculative record reaches
 * the principal buffer only on commit, restamped with the commit time, and
 * never after a discard.
 */
#include "core_harness.h"

static uint32_t
key_const(dofb_t *b)
{
	return dofb_difo_const(b, 1, 8); /* the aggregation variable's id */
}

static void
test_aggregate(dtrace_id_t fire)
{
	dtrace_state_t *st;
	dofb_t b;
	int32_t cpu;
	struct {
		dtrace_aggdesc_t ad;
		dtrace_recdesc_t more[3];
	} agd;
	dtrace_recdesc_t *rec;
	uint64_t n, counts[10] = {0}, sums[10] = {0};

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	{
		dof_actdesc_t a[3] = {dofb_act(DTRACEACT_DIFEXPR, key_const(&b), 0),
				      harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8)),
				      dofb_act(DTRACEAGG_COUNT, DOF_SECIDX_NONE, 0)};
		dof_actdesc_t s[3] = {dofb_act(DTRACEACT_DIFEXPR, dofb_difo_const(&b, 2, 8), 0),
				      harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8)),
				      dofb_act(DTRACEAGG_SUM, dofb_difo_var(&b, DIF_VAR_ARG1, 8),
					       0)};

		a[2].dofa_ntuple = 2;
		s[2].dofa_ntuple = 2;
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, a, 3), 0);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, s, 3), 0);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096}, {DTRACEOPT_AGGSIZE, 8192}};
		dofb_options(&b, opts, 2);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);

	dtrace_probe(fire, 5, 100, 0, 0, 0);
	dtrace_probe(fire, 5, 20, 0, 0, 0);
	dtrace_probe(fire, 6, 3, 0, 0, 0);

	memset(&agd, 0, sizeof(agd));
	agd.ad.dtagd_id = 1;
	agd.ad.dtagd_nrecs = 4;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_AGGDESC, &agd, NULL), 0);
	rec = (dtrace_recdesc_t *)(void *)((char *)&agd.ad + offsetof(dtrace_aggdesc_t, dtagd_rec));
	CHECK_EQ(agd.ad.dtagd_nrecs, 3);
	CHECK_EQ(agd.ad.dtagd_size, 32);
	CHECK_EQ(rec[0].dtrd_offset, 8);
	CHECK_EQ(rec[1].dtrd_offset, 16);
	CHECK_EQ(rec[2].dtrd_offset, 24);
	CHECK_EQ(rec[2].dtrd_action, DTRACEAGG_COUNT);

	CHECK_EQ(harness_snap(st, 0, false, NULL), 0); /* aggregations record nothing here */
	n = harness_snap(st, 0, true, NULL);
	CHECK(n != 0 && n % 32 == 0);
	for (uint64_t off = 0; off + 32 <= n; off += 32) {
		const char *e = harness_data + off;
		uint64_t key = rd64(e + 16);

		CHECK(rd32(e) == 1 || rd32(e) == 2);
		if (key >= 10)
			continue;
		if (rd32(e) == 1) {
			CHECK_EQ(rd64(e + 8), 1);
			counts[key] += rd64(e + 24);
		} else {
			CHECK_EQ(rd64(e + 8), 2);
			sums[key] += rd64(e + 24);
		}
	}
	CHECK_EQ(counts[5], 2);
	CHECK_EQ(counts[6], 1);
	CHECK_EQ(sums[5], 120);
	CHECK_EQ(sums[6], 3);
	/* each snapshot swaps in an empty buffer */
	CHECK_EQ(harness_snap(st, 0, true, NULL), 0);

	dtrace_state_close(st);
	dofb_fini(&b);
}

static void
test_speculate(const dtrace_id_t *ids)
{
	dtrace_state_t *st;
	dofb_t b;
	int32_t cpu;
	uint64_t n;
	char *r;

	CHECK_EQ(dtrace_state_open(DTRACE_PRIV_ALL, 0, &st), 0);
	dofb_init(&b);
	{
		dif_instr_t spec[] = {DIF_INSTR_CALL(DIF_SUBR_SPECULATION, 1), DIF_INSTR_RET(1)};
		dof_actdesc_t s = harness_trace(
			dofb_difo(&b, dofb_type_int(8), spec, 2, NULL, 0, NULL, 0, NULL, 0));
		dof_actdesc_t f[2] = {dofb_act(DTRACEACT_SPECULATE, dofb_difo_const(&b, 1, 8), 0),
				      harness_trace(dofb_difo_var(&b, DIF_VAR_ARG0, 8))};
		dof_actdesc_t c = dofb_act(DTRACEACT_COMMIT, dofb_difo_const(&b, 1, 8), 0);
		dof_actdesc_t d = dofb_act(DTRACEACT_DISCARD, dofb_difo_const(&b, 1, 8), 0);

		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "start"), DOF_SECIDX_NONE,
			     dofb_actions(&b, &s, 1), 0);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "fire"), DOF_SECIDX_NONE,
			     dofb_actions(&b, f, 2), 0);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "commit"), DOF_SECIDX_NONE,
			     dofb_actions(&b, &c, 1), 0);
		dofb_ecbdesc(&b, dofb_probedesc(&b, "test", "", "", "discard"), DOF_SECIDX_NONE,
			     dofb_actions(&b, &d, 1), 0);
	}
	{
		const uint64_t opts[][2] = {{DTRACEOPT_BUFSIZE, 4096},
					    {DTRACEOPT_SPECSIZE, 4096},
					    {DTRACEOPT_NSPEC, 1}};
		dofb_options(&b, opts, 3);
	}
	CHECK_EQ(harness_enable_dof(st, &b, NULL), 0);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_GO, &cpu, NULL), 0);

	testport_set_time(100);
	dtrace_probe(ids[1], 0, 0, 0, 0, 0);	/* start: speculation 1 */
	dtrace_probe(ids[0], 4242, 0, 0, 0, 0); /* fire: speculative */
	n = harness_snap(st, 0, false, NULL);
	CHECK_EQ(n, 24); /* only start's record */
	CHECK_EQ(rd32(harness_data), 1);
	CHECK_EQ(rd64(harness_data + 16), 1); /* the speculation id */

	testport_set_time(900);
	dtrace_probe(ids[2], 0, 0, 0, 0, 0); /* commit */
	n = harness_snap(st, 0, false, NULL);
	CHECK_EQ(n, 24);
	r = harness_data;
	CHECK_EQ(rd32(r), 2);
	CHECK_EQ(rd32(r + 8), 900); /* stamped at commit */
	CHECK_EQ(rd64(r + 16), 4242);

	dtrace_probe(ids[1], 0, 0, 0, 0, 0);
	dtrace_probe(ids[0], 77, 0, 0, 0, 0);
	dtrace_probe(ids[3], 0, 0, 0, 0, 0); /* discard */
	n = harness_snap(st, 0, false, NULL);
	CHECK_EQ(n, 24); /* start's record only */
	CHECK_EQ(rd32(harness_data), 1);

	dtrace_state_close(st);
	dofb_fini(&b);
}

int
main(void)
{
	static const char *const names[] = {"fire", "start", "commit", "discard", NULL};
	dtrace_id_t ids[4];
	dtrace_provider_id_t p = harness_setup(1, names, ids);

	test_aggregate(ids[0]);
	test_speculate(ids);
	harness_teardown(p);
	return TEST_DONE();
}
