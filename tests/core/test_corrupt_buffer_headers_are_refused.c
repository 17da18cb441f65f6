/*
 * Buffer headers and speculation states live in memory traced processes
 * can write (the Linux host's arena).  Whatever they are made to say between
 * a probe firing and a control operation, the consumer's side of the core
 * never copies from or to outside the buffers it allocated and never loops
 * without end:
 *   - BUFSNAP and AGGSNAP refuse a corrupt header -- an active half the core
 *     never allocated, an offset past the end or off the 4-byte grid, a
 *     ring's oldest record beyond its data -- with EBADMSG, repair the
 *     buffer, and work again at the next snapshot; a forged size, policy or
 *     per-CPU array pointer is simply not believed;
 *   - AGGSNAP leaves a fresh key index behind, whatever the old one held;
 *   - records whose EPIDs no ECB has (in a speculation the cleaner commits,
 *     in a ring that wraps onto them) are stepped over within the buffer;
 *   - the speculation cleaner turns a corrupt part (its header, or the
 *     principal buffer's it would go to) into a counted speculation drop,
 *     and returns a speculation whose state word is no state to INACTIVE;
 *   - STATUS believes no CPU count beyond the port's, and EPROBE's walk of
 *     an action list ends even when the list loops.
 */
#include "core_harness.h"

#define BUFSIZE 4096
#define SPECSIZE 1024

enum { P_FIRE, P_AGG, P_START, P_COMMIT };

static dtrace_id_t ids[4];


static void
fire_on(uint32_t cpu, int which, uint64_t arg0)
{
	testport_set_cpu(cpu);
	dtrace_probe(ids[which], arg0, 0, 0, 0, 0);
	testport_set_cpu(0);
}


/* One firing recorded and snapshotted whole: the buffer works. */
static void
check_buffer_works(dtrace_state_t *st, uint32_t cpu, uint64_t value)
{
	uint64_t n;

	fire_on(cpu, P_FIRE, value);
	CHECK_EQ(harness_snap_rc(st, cpu, false, &n), 0);
	CHECK_EQ(n, 24);
	CHECK_EQ(rd64(harness_data + 16), value);
}

static void
test_switch_buffer_headers(void)
{
	dtrace_state_t *st = harness_start_trace_and_count(BUFSIZE, DTRACEOPT_BUFPOLICY_SWITCH);
	dtrace_buffer_t *buf = &st->dts_buffer[1], *arr, *aggarr;
	char *tomax;
	uint64_t n;

	/* an offset past the end: refused, repaired, nothing copied */
	fire_on(1, P_FIRE, 1);
	buf->dtb_offset = BUFSIZE + 64;
	CHECK_EQ(harness_snap_rc(st, 1, false, NULL), DTRACE_EBADMSG);
	CHECK_EQ(buf->dtb_offset, 0);
	CHECK_EQ(harness_snap_rc(st, 1, false, &n), 0);
	CHECK_EQ(n, 0);
	check_buffer_works(st, 1, 2);

	/* off the grid of 4-byte words */
	fire_on(1, P_FIRE, 3);
	buf->dtb_offset = 22;
	CHECK_EQ(harness_snap_rc(st, 1, false, NULL), DTRACE_EBADMSG);
	check_buffer_works(st, 1, 4);

	/* a size that is not the buffer's makes no offset valid */
	fire_on(1, P_FIRE, 5);
	buf->dtb_size = (uint64_t)1 << 40;
	buf->dtb_offset = 2 * BUFSIZE;
	CHECK_EQ(harness_snap_rc(st, 1, false, NULL), DTRACE_EBADMSG);
	CHECK_EQ(buf->dtb_size, BUFSIZE);
	check_buffer_works(st, 1, 6);

	/* an active half that is none of the buffer's: nothing is read there */
	tomax = buf->dtb_tomax;
	buf->dtb_tomax = (char *)(uintptr_t)0x1000;
	buf->dtb_offset = 24;
	CHECK_EQ(harness_snap_rc(st, 1, false, NULL), DTRACE_EBADMSG);
	CHECK(buf->dtb_tomax != (char *)(uintptr_t)0x1000);
	check_buffer_works(st, 1, 7);

	/* the two halves swapped: both are the buffer's, so it is only data */
	fire_on(1, P_FIRE, 8);
	tomax = buf->dtb_tomax;
	buf->dtb_tomax = buf->dtb_xamot;
	buf->dtb_xamot = tomax;
	CHECK_EQ(harness_snap_rc(st, 1, false, &n), 0);
	CHECK_EQ(n, 24);
	check_buffer_works(st, 1, 9);

	/* a policy flag the buffer was not made with is not believed */
	fire_on(1, P_FIRE, 10);
	buf->dtb_flags |= DTRACEBUF_RING | DTRACEBUF_WRAPPED;
	buf->dtb_xamot_offset = 1u << 30;
	CHECK_EQ(harness_snap_rc(st, 1, false, &n), 0);
	CHECK_EQ(n, 24);
	CHECK_EQ(rd64(harness_data + 16), 10);
	check_buffer_works(st, 1, 11);

	/* the state's array pointers are not where snapshots look */
	fire_on(0, P_FIRE, 12);
	arr = st->dts_buffer;
	aggarr = st->dts_aggbuffer;
	st->dts_buffer = (dtrace_buffer_t *)(uintptr_t)0x2000;
	st->dts_aggbuffer = arr;
	CHECK_EQ(harness_snap_rc(st, 0, false, &n), 0);
	CHECK_EQ(n, 24);
	CHECK_EQ(rd64(harness_data + 16), 12);
	CHECK_EQ(harness_snap_rc(st, 0, true, &n), 0);
	CHECK_EQ(n, 0);
	st->dts_buffer = arr;
	st->dts_aggbuffer = aggarr;

	/* and a corrupt CPU does not disturb the others */
	fire_on(0, P_FIRE, 13);
	buf->dtb_offset = BUFSIZE + 8;
	CHECK_EQ(harness_snap_rc(st, 1, false, NULL), DTRACE_EBADMSG);
	CHECK_EQ(harness_snap_rc(st, 0, false, &n), 0);
	CHECK_EQ(n, 24);

	dtrace_state_close(st);
}

/* The layout of an index entry (core/buffers/aggregation.c). */
typedef struct {
	uint64_t data;
	uint32_t next, hashval, size, action;
} aggkey_t;

static void
test_aggregation_buffer_headers(void)
{
	dtrace_state_t *st = harness_start_trace_and_count(BUFSIZE, DTRACEOPT_BUFPOLICY_SWITCH);
	dtrace_buffer_t *agg = &st->dts_aggbuffer[0];
	aggkey_t *keys;
	uint32_t *buckets;
	uint64_t n;

	fire_on(0, P_AGG, 5);
	agg->dtb_offset = 1u << 20;
	CHECK_EQ(harness_snap_rc(st, 0, true, NULL), DTRACE_EBADMSG);
	CHECK_EQ(harness_snap_rc(st, 0, true, &n), 0);
	CHECK_EQ(n, 0);

	/*
	 * Every bucket on key 1, key 1 its own successor, an absurd key count
	 * and index offset: the snapshot copies the entries alone and leaves an
	 * index it built from the ledger.
	 */
	fire_on(0, P_AGG, 5);
	fire_on(0, P_AGG, 6);
	buckets = (uint32_t *)(void *)(agg->dtb_tomax + agg->dtb_agg_hash);
	for (uint32_t i = 0; i <= agg->dtb_agg_hashmask; i++)
		buckets[i] = 1;
	keys = (aggkey_t *)(void *)(agg->dtb_tomax + agg->dtb_agg_hash);
	keys[-1].next = 1;
	keys[-1].data = (uint64_t)1 << 50;
	agg->dtb_agg_nkeys = 0xfffffff0u;
	agg->dtb_agg_hash = (uint64_t)1 << 40;
	agg->dtb_agg_hashmask = 0xffffffffu;
	CHECK_EQ(harness_snap_rc(st, 0, true, &n), 0);
	CHECK_EQ(n, 64); /* two entries of id, key, value */
	CHECK_EQ(agg->dtb_agg_nkeys, 0);
	CHECK(agg->dtb_agg_hash < 8192 && agg->dtb_agg_hashmask < 8192);
	fire_on(0, P_AGG, 7);
	fire_on(0, P_AGG, 7);
	CHECK_EQ(harness_snap_rc(st, 0, true, &n), 0);
	CHECK_EQ(n, 32);
	CHECK_EQ(rd64(harness_data + 16), 7);
	CHECK_EQ(rd64(harness_data + 24), 2);

	/* an active half that is none of the buffer's */
	agg->dtb_tomax = (char *)(uintptr_t)0x3000;
	CHECK_EQ(harness_snap_rc(st, 0, true, NULL), DTRACE_EBADMSG);
	fire_on(0, P_AGG, 8);
	CHECK_EQ(harness_snap_rc(st, 0, true, &n), 0);
	CHECK_EQ(n, 32);

	dtrace_state_close(st);
}

static void
test_ring_and_fill_headers(void)
{
	dtrace_state_t *st;
	dtrace_buffer_t *buf;
	int32_t cpu;
	uint64_t n;

	/* ring: a forged "switch" policy does not let a snapshot read it early */
	st = harness_start_trace_and_count(BUFSIZE, DTRACEOPT_BUFPOLICY_RING);
	buf = &st->dts_buffer[0];
	for (uint64_t i = 0; i < 400; i++) /* wraps: 24-byte records in 4096 */
		fire_on(0, P_FIRE, i);
	CHECK(buf->dtb_flags & DTRACEBUF_WRAPPED);
	buf->dtb_flags &= ~(uint32_t)DTRACEBUF_RING;
	CHECK_EQ(harness_snap_rc(st, 0, false, NULL), DTRACE_EBUSY);
	buf->dtb_flags |= DTRACEBUF_RING;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL), 0);
	/* the oldest record beyond the buffer */
	buf->dtb_xamot_offset = BUFSIZE + 8;
	CHECK_EQ(harness_snap_rc(st, 0, false, NULL), DTRACE_EBADMSG);
	CHECK_EQ(harness_snap_rc(st, 0, false, &n), 0); /* consumed: nothing more */
	CHECK_EQ(n, 0);
	dtrace_state_close(st);

	/* ring: EPIDs no ECB has, written over records, are stepped over a
	 * word at a time when newer records wrap onto them */
	st = harness_start_trace_and_count(BUFSIZE, DTRACEOPT_BUFPOLICY_RING);
	buf = &st->dts_buffer[0];
	for (uint64_t i = 0; i < 400; i++) {
		if (i % 50 == 0)
			memcpy(buf->dtb_tomax + (i * 8) % BUFSIZE, &(dtrace_epid_t){0x7fffffffu}, 4);
		fire_on(0, P_FIRE, i);
	}
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL), 0);
	CHECK_EQ(harness_snap_rc(st, 0, false, &n), 0);
	CHECK_EQ(n, BUFSIZE);
	dtrace_state_close(st);

	/* ring: an intact wrapped buffer still comes out whole */
	st = harness_start_trace_and_count(BUFSIZE, DTRACEOPT_BUFPOLICY_RING);
	for (uint64_t i = 0; i < 400; i++)
		fire_on(0, P_FIRE, i);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL), 0);
	CHECK_EQ(harness_snap_rc(st, 0, false, &n), 0);
	CHECK_EQ(n, BUFSIZE);
	dtrace_state_close(st);

	/* fill: an offset past the end after STOP */
	st = harness_start_trace_and_count(BUFSIZE, DTRACEOPT_BUFPOLICY_FILL);
	buf = &st->dts_buffer[1];
	fire_on(1, P_FIRE, 1);
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STOP, &cpu, NULL), 0);
	buf->dtb_offset = BUFSIZE * 2;
	CHECK_EQ(harness_snap_rc(st, 1, false, NULL), DTRACE_EBADMSG);
	/* the oldest offset of a fill buffer is never beyond its data */
	st->dts_buffer[0].dtb_xamot_offset = 16;
	CHECK_EQ(harness_snap_rc(st, 0, false, NULL), DTRACE_EBADMSG);
	dtrace_state_close(st);
}

static void
speculate_on_both_and_commit(dtrace_state_t *st)
{
	fire_on(0, P_START, 0); /* takes speculation 1 */
	fire_on(0, P_FIRE, 10);
	fire_on(1, P_FIRE, 11);
	fire_on(0, P_COMMIT, 0);
	CHECK_EQ(st->dts_speculations[0].dtsp_state, DTRACESPEC_COMMITTINGMANY);
}

static uint64_t
specdrops(dtrace_state_t *st)
{
	dtrace_status_t s;

	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STATUS, &s, NULL), 0);
	return s.dtst_specdrops;
}

static void
clean(void)
{
	CHECK_EQ(testport_fire_timers(DTRACE_CLEANRATE_MIN), 1);
}

static void
test_speculation_cleaner(void)
{
	dtrace_state_t *st = harness_start_speculating(BUFSIZE, SPECSIZE, DTRACE_CLEANRATE_MIN);
	uint64_t n;

	/* intact: CPU 1's part reaches its principal buffer */
	speculate_on_both_and_commit(st);
	clean();
	CHECK_EQ(st->dts_speculations[0].dtsp_state, DTRACESPEC_INACTIVE);
	CHECK_EQ(harness_snap_rc(st, 1, false, &n), 0);
	CHECK_EQ(n, 24);
	CHECK_EQ(specdrops(st), 0);
	CHECK_EQ(harness_snap_rc(st, 0, false, NULL), 0);

	/* CPU 1's part claims more than the speculation buffer holds */
	speculate_on_both_and_commit(st);
	st->dts_speculations[0].dtsp_buffer[1].dtb_offset = SPECSIZE * 16;
	clean();
	CHECK_EQ(st->dts_speculations[0].dtsp_state, DTRACESPEC_INACTIVE);
	CHECK_EQ(harness_snap_rc(st, 1, false, &n), 0);
	CHECK_EQ(n, 0);
	CHECK_EQ(specdrops(st), 1);
	CHECK_EQ(harness_snap_rc(st, 0, false, NULL), 0);

	/* its active half moved elsewhere */
	speculate_on_both_and_commit(st);
	st->dts_speculations[0].dtsp_buffer[1].dtb_tomax = (char *)(uintptr_t)0x4000;
	clean();
	CHECK_EQ(specdrops(st), 2);
	CHECK_EQ(harness_snap_rc(st, 1, false, &n), 0);
	CHECK_EQ(n, 0);
	CHECK(st->dts_speculations[0].dtsp_buffer[1].dtb_tomax != (char *)(uintptr_t)0x4000);
	CHECK_EQ(harness_snap_rc(st, 0, false, NULL), 0);
	/* repaired: the next round commits CPU 1's part again */
	speculate_on_both_and_commit(st);
	clean();
	CHECK_EQ(harness_snap_rc(st, 1, false, &n), 0);
	CHECK_EQ(n, 24);
	CHECK_EQ(specdrops(st), 2);
	dtrace_state_close(st);
	st = harness_start_speculating(BUFSIZE, SPECSIZE, DTRACE_CLEANRATE_MIN);

	/*
	 * Records with EPIDs no ECB has, or an ECB's whose records are longer
	 * than what is left: the commit's restamping walk stops within the
	 * part, and the bytes are copied as they are (data, which the consumer
	 * checks).
	 */
	speculate_on_both_and_commit(st);
	memcpy(st->dts_speculations[0].dtsp_buffer[1].dtb_tomax, &(dtrace_epid_t){0xfffffff0u}, 4);
	clean();
	CHECK_EQ(harness_snap_rc(st, 1, false, &n), 0);
	CHECK_EQ(n, 24);
	CHECK_EQ(rd32(harness_data), 0xfffffff0u);
	speculate_on_both_and_commit(st);
	memcpy(st->dts_speculations[0].dtsp_buffer[1].dtb_tomax, &(dtrace_epid_t){1}, 4);
	clean();
	CHECK_EQ(harness_snap_rc(st, 1, false, &n), 0);
	CHECK_EQ(n, 24);
	CHECK_EQ(harness_snap_rc(st, 0, false, NULL), 0);
	dtrace_state_close(st);

	/* the principal buffer it would go to is corrupt: a drop, and BUFSNAP
	 * reports the principal buffer */
	st = harness_start_speculating(BUFSIZE, SPECSIZE, DTRACE_CLEANRATE_MIN);
	speculate_on_both_and_commit(st);
	st->dts_buffer[1].dtb_offset = 6;
	clean();
	CHECK_EQ(st->dts_speculations[0].dtsp_state, DTRACESPEC_INACTIVE);
	CHECK_EQ(specdrops(st), 1);
	CHECK_EQ(harness_snap_rc(st, 1, false, NULL), DTRACE_EBADMSG);
	CHECK_EQ(harness_snap_rc(st, 1, false, &n), 0);
	CHECK_EQ(n, 0);

	/* a state word that is no state: back to INACTIVE, and usable again */
	CHECK_EQ(harness_snap_rc(st, 0, false, NULL), 0);
	st->dts_speculations[0].dtsp_state = 77;
	fire_on(0, P_START, 0);
	CHECK_EQ(harness_snap_rc(st, 0, false, &n), 0);
	CHECK_EQ(n, 24);
	CHECK_EQ(rd64(harness_data + 16), 0); /* none to be had */
	clean();
	CHECK_EQ(st->dts_speculations[0].dtsp_state, DTRACESPEC_INACTIVE);
	fire_on(0, P_START, 0);
	CHECK_EQ(harness_snap_rc(st, 0, false, &n), 0);
	CHECK_EQ(rd64(harness_data + 16), 1);
	dtrace_state_close(st);
}

static void
test_status_and_eprobe(void)
{
	dtrace_state_t *st = harness_start_trace_and_count(BUFSIZE, DTRACEOPT_BUFPOLICY_SWITCH);
	struct {
		dtrace_eprobedesc_t e;
		dtrace_recdesc_t more[4];
	} epd;
	dtrace_action_t *act, *next;
	dtrace_status_t s;

	/* a CPU count for the dynamic-variable store far beyond the port's */
	st->dts_vstate.dtvs_dynvars.dtds_ncpus = 1u << 30;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_STATUS, &s, NULL), 0);
	CHECK_EQ(s.dtst_dyndrops, 0);
	st->dts_vstate.dtvs_dynvars.dtds_ncpus = 2;

	/* an action list that loops: EPROBE ends */
	act = st->dts_ecbs[0]->dte_action;
	next = act->dta_next;
	act->dta_next = act;
	memset(&epd, 0, sizeof(epd));
	epd.e.dtepd_epid = 1;
	epd.e.dtepd_nrecs = 5;
	CHECK_EQ(dtrace_ctl(st, DTRACE_CTL_EPROBE, &epd, NULL), 0);
	CHECK(epd.e.dtepd_nrecs > 1);
	act->dta_next = next;

	dtrace_state_close(st);
}

int
main(void)
{
	static const char *const names[] = {"fire", "agg", "start", "commit", NULL};
	dtrace_provider_id_t p = harness_setup(2, names, ids);

	test_switch_buffer_headers();
	test_aggregation_buffer_headers();
	test_ring_and_fill_headers();
	test_speculation_cleaner();
	test_status_and_eprobe();
	harness_teardown(p);
	return TEST_DONE();
}
