/*
 * test_consume_corrupt_snapshots: snapshots a traced process corrupted
 * (on the Linux host it can write the buffers at will) give a clear error
 * or harmless output, never a crash, an out-of-bounds read or a trap:
 * an unknown EPID is DTrace's "Invalid EPID", a firing past the snapshot
 * "Data record offset exceeds buffer boundary", a misaligned firing or
 * aggregation entry "Data record has inappropriate alignment", an unknown
 * aggregation id "Invalid aggregation ID", an lquantize() value whose
 * parameters do not match its size "Data record list does not match
 * statement"; strings and ustack() string tables without a NUL are read
 * only within their records; avg() and stddev() with a zero or -1 count
 * and normalize() by -1 do not trap; and a header the core refused
 * (EBADMSG) is "Buffer state is corrupt".  A firing stamped later than
 * its snapshot cannot hold its CPU's records back.  Then a few thousand
 * randomly corrupted snapshots go through the same paths.
 */
#include <errno.h>
#include <stdint.h>

#include "dt_testutil.h"

static char rbuf[8192] __attribute__((aligned(8)));
static size_t rlen;

static char *
fire(dtrace_hdl_t *dtp, dtrace_epid_t epid)
{
	dtrace_eprobedesc_t *epd;
	dtrace_probedesc_t *pd;
	char *rec = rbuf + rlen;

	DT_CHECK(dt_epid_lookup(dtp, epid, &epd, &pd) == 0);
	memset(rec, 0, epd->dtepd_size);
	((dtrace_rechdr_t *)rec)->dtrh_epid = epid;
	rlen += epd->dtepd_size;
	return rec;
}

/* Consume rbuf[0..rlen); returns the output, *rvp the result. */
static char *
consume(dtrace_hdl_t *dtp, const char *buf, size_t len, int *rvp)
{
	dt_capture_t cap;

	dt_capture_open(&cap);
	*rvp = dt_consume_records(dtp, cap.fp, 0, buf, len, NULL, NULL, NULL);
	rlen = 0;
	return dt_capture_close(&cap);
}

static void
expect_error(dtrace_hdl_t *dtp, const char *buf, size_t len, int err, const char *msg)
{
	int rv;
	char *out = consume(dtp, buf, len, &rv);

	DT_CHECK(rv == -1);
	DT_CHECK(dtrace_errno(dtp) == err);
	DT_EXPECT_STR(dtrace_errmsg(dtp, dtrace_errno(dtp)), msg);
	free(out);
}

/* EPID 1: trace(int64), trace(16-byte string); EPID 2: ustack(2) with a
 * 16-byte string table. */
static dtrace_hdl_t *
records_handle(dt_layout_t *l1, dt_layout_t *l2)
{
	dtrace_hdl_t *dtp = dt_test_handle();

	dt_layout_init(l1, sizeof(dtrace_rechdr_t));
	dt_layout_add(l1, DTRACEACT_DIFEXPR, 8, 8, 0);
	dt_layout_add(l1, DTRACEACT_DIFEXPR, 16, 1, 0);
	dt_test_epid(dtp, 1, 1, "test", "", "", "fire", l1);
	dt_layout_init(l2, sizeof(dtrace_rechdr_t));
	dt_layout_add(l2, DTRACEACT_USTACK, 3 * 8 + 16, 8, DTRACE_USTACK_ARG(2, 16));
	dt_test_epid(dtp, 2, 2, "test", "", "", "stack", l2);
	DT_CHECK(dtrace_setopt(dtp, "quiet", NULL) == 0);
	return dtp;
}

static void
test_bad_records(void)
{
	dt_layout_t l1, l2;
	dtrace_hdl_t *dtp = records_handle(&l1, &l2);
	char *r, *out;
	int rv;

	/* an EPID no enabled probe has: DTrace's words, no output */
	r = fire(dtp, 1);
	((dtrace_rechdr_t *)r)->dtrh_epid = 77;
	expect_error(dtp, rbuf, rlen, EDT_BADEPID, "Invalid EPID");

	/* a firing whose size runs past what the snapshot holds */
	fire(dtp, 1);
	fire(dtp, 1);
	expect_error(dtp, rbuf, rlen - 4, EDT_DOFFSET,
		     "Data record offset exceeds buffer boundary");

	/* a firing moved off its 8-byte alignment by a filler word */
	memset(rbuf, 0, 4);
	rlen = 4;
	fire(dtp, 1);
	expect_error(dtp, rbuf, rlen, EDT_DALIGN, "Data record has inappropriate alignment");

	/* a string with no NUL: printed from its 16 bytes, not beyond */
	r = fire(dtp, 1);
	*(int64_t *)(r + l1.recs[0].dtrd_offset) = 5;
	memset(r + l1.recs[1].dtrd_offset, 'A', 16);
	out = consume(dtp, rbuf, rlen, &rv);
	DT_CHECK(rv == 0);
	DT_CHECK(strncmp(out, "5  AAAAAAAAAAAAAAAA ", 20) == 0 && strchr(out + 20, 'A') == NULL);
	free(out);

	/* a ustack() string table with no NUL, and an annotation cut short */
	r = fire(dtp, 2);
	{
		uint64_t *pcs = (uint64_t *)(void *)(r + l2.recs[0].dtrd_offset);

		pcs[0] = 0x7fffffff; /* no such process */
		pcs[1] = 0x1000;
		pcs[2] = 0x2000;
		memcpy(pcs + 3, "@annotation-with", 16);
	}
	out = consume(dtp, rbuf, rlen, &rv);
	DT_CHECK(rv == 0);
	DT_CHECK(strstr(out, "[ annotation-with ]") != NULL);
	free(out);
	r = fire(dtp, 2);
	{
		uint64_t *pcs = (uint64_t *)(void *)(r + l2.recs[0].dtrd_offset);

		pcs[0] = 0x7fffffff;
		pcs[1] = 0x1000;
		pcs[2] = 0x2000;
		memcpy(pcs + 3, "a-name-16-bytes!", 16);
	}
	out = consume(dtp, rbuf, rlen, &rv);
	DT_CHECK(rv == 0);
	DT_CHECK(strstr(out, "a-name-16-bytes!\n") != NULL);
	free(out);
	dt_handle_destroy(dtp);
}

/* --- Aggregation snapshots -------------------------------------------------- */

static void
agg_add(dtrace_hdl_t *dtp, dtrace_aggid_t id, dtrace_actkind_t fn, uint32_t size, uint64_t arg)
{
	dt_layout_t l;

	dt_layout_init(&l, sizeof(dtrace_aggid_t));
	dt_layout_add(&l, DTRACEACT_DIFEXPR, sizeof(dtrace_aggvarid_t), 8, 0);
	dt_layout_add(&l, fn, size, 8, arg);
	dt_test_aggid(dtp, id, 1, "", &l);
}

/* An entry of aggregation id with value words v at buf + offs; returns
 * the offset after it. */
static size_t
entry(char *buf, size_t offs, dtrace_aggid_t id, const int64_t *v, size_t nv)
{
	int64_t varid = id;

	/* byte copies: the tests also place entries where they do not belong */
	memcpy(buf + offs, &id, sizeof(id));
	memcpy(buf + offs + 8, &varid, sizeof(varid));
	memcpy(buf + offs + 16, v, nv * sizeof(int64_t));
	return offs + 16 + nv * sizeof(int64_t);
}

static dtrace_hdl_t *
agg_handle(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();

	agg_add(dtp, 1, DTRACEAGG_AVG, 16, 0);
	agg_add(dtp, 2, DTRACEAGG_STDDEV, 32, 0);
	agg_add(dtp, 3, DTRACEAGG_LQUANTIZE, 8 * (1 + 4 + 2), DTRACE_LQUANTIZE_ARG(10, 4, 0));
	agg_add(dtp, 4, DTRACEAGG_SUM, 8, 0);
	return dtp;
}

static char *
print_aggs(dtrace_hdl_t *dtp, int *rvp)
{
	dt_capture_t cap;

	dt_capture_open(&cap);
	*rvp = dtrace_aggregate_print(dtp, cap.fp, NULL);
	return dt_capture_close(&cap);
}

static void
test_bad_aggregations(void)
{
	static char buf[1024] __attribute__((aligned(8)));
	dtrace_hdl_t *dtp = agg_handle();
	int64_t v[8];
	size_t n;
	char *out;
	int rv;

	/* an aggregation id no aggregation has */
	memset(buf, 0, sizeof(buf));
	v[0] = 1;
	n = entry(buf, 0, 9, v, 1);
	DT_CHECK(dt_aggregate_merge(dtp, 0, buf, n) == -1);
	DT_CHECK(dtrace_errno(dtp) == EDT_BADAGGID);
	DT_EXPECT_STR(dtrace_errmsg(dtp, EDT_BADAGGID), "Invalid aggregation ID");

	/* an entry moved off its 8-byte alignment by a filler word */
	memset(buf, 0, sizeof(buf));
	v[0] = 1;
	n = entry(buf, 4, 4, v, 1);
	DT_CHECK(dt_aggregate_merge(dtp, 0, buf, n) == -1);
	DT_CHECK(dtrace_errno(dtp) == EDT_DALIGN);

	/* lquantize() parameters describing more buckets than the value holds */
	memset(buf, 0, sizeof(buf));
	memset(v, 0, sizeof(v));
	v[0] = (int64_t)DTRACE_LQUANTIZE_ARG(10, 4000, 0);
	n = entry(buf, 0, 3, v, 7);
	DT_CHECK(dt_aggregate_merge(dtp, 0, buf, n) == -1);
	DT_CHECK(dtrace_errno(dtp) == EDT_DMISMATCH);

	/* avg() and stddev() whose counts would divide by zero or trap */
	memset(buf, 0, sizeof(buf));
	v[0] = -1;
	v[1] = INT64_MIN;
	n = entry(buf, 0, 1, v, 2);
	v[0] = 0;
	v[1] = 7;
	v[2] = 100;
	v[3] = 0;
	n = entry(buf, n, 2, v, 4);
	v[0] = -1;
	v[1] = INT64_MIN;
	v[2] = 0;
	v[3] = 1;
	n = entry(buf, n, 2, v, 4);
	v[0] = INT64_MIN;
	n = entry(buf, n, 4, v, 1);
	DT_CHECK(dt_aggregate_merge(dtp, 0, buf, n) == 0);
	out = print_aggs(dtp, &rv);
	DT_CHECK(rv == 0);
	DT_CHECK(strstr(out, "-9223372036854775808") != NULL);
	free(out);
	dt_handle_destroy(dtp);
}

/* --- The core's refusal ------------------------------------------------------ */

static int
refuse_ctl(void *state, dtrace_ctl_t cmd, void *arg, int *rv)
{
	(void)state;
	(void)arg;
	(void)rv;
	return cmd == DTRACE_CTL_BUFSNAP || cmd == DTRACE_CTL_AGGSNAP ? EBADMSG : EINVAL;
}

static void
noop_close(void *state)
{
	(void)state;
}

static void
test_corrupt_header_refused_by_core(void)
{
	static const dt_backend_t refuse = {.name = "refuse", .ctl = refuse_ctl, .close = noop_close};
	dtrace_hdl_t *dtp = agg_handle();

	dtp->dt_backend = &refuse;
	dtp->dt_active = 1;
	dtp->dt_options[DTRACEOPT_BUFSIZE] = 4096;
	dtp->dt_options[DTRACEOPT_AGGSIZE] = 4096;
	dtp->dt_options[DTRACEOPT_SWITCHRATE] = 0;
	dtp->dt_options[DTRACEOPT_AGGRATE] = 0;
	DT_CHECK(dt_aggregate_go(dtp) == 0);
	DT_CHECK(dtrace_consume(dtp, NULL, NULL, NULL, NULL) == -1);
	DT_CHECK(dtrace_errno(dtp) == EDT_BADBUF);
	DT_EXPECT_STR(dtrace_errmsg(dtp, dtrace_errno(dtp)), "Buffer state is corrupt");
	DT_CHECK(dtrace_aggregate_snap(dtp) == -1);
	DT_CHECK(dtrace_errno(dtp) == EDT_BADBUF);
	dtp->dt_backend = NULL;
	dt_handle_destroy(dtp);
}

/* --- Forged timestamps ------------------------------------------------------ */

static char snapdata[256] __attribute__((aligned(8)));
static size_t snaplen, snapoldest;

static int
snap_ctl(void *state, dtrace_ctl_t cmd, void *arg, int *rv)
{
	dtrace_bufdesc_t *d = arg;

	(void)state;
	(void)rv;
	if (cmd != DTRACE_CTL_BUFSNAP || d->dtbd_cpu != 0)
		return ENOENT;
	memcpy(d->dtbd_data, snapdata, snaplen);
	d->dtbd_size = snaplen;
	d->dtbd_oldest = snapoldest;
	d->dtbd_drops = 0;
	d->dtbd_timestamp = 5000; /* the switch: every record is older */
	return 0;
}

/*
 * A firing stamped far in the future (or at UINT64_MAX, which reads as "no
 * firing left") must not hold its CPU's later firings back: without a
 * bound they would wait, and the snapshots pile up in memory, until STOP.
 */
static void
test_future_timestamps_do_not_hold_records(void)
{
	static const dt_backend_t snap = {.name = "snap", .ctl = snap_ctl, .close = noop_close};
	dt_layout_t l1, l2;
	dtrace_hdl_t *dtp = records_handle(&l1, &l2);
	dt_capture_t cap;
	char *r, *out;

	dtp->dt_backend = &snap;
	dtp->dt_active = 1;
	dtp->dt_options[DTRACEOPT_BUFSIZE] = sizeof(snapdata);
	dtp->dt_options[DTRACEOPT_SWITCHRATE] = 0;
	for (int pass = 0; pass < 3; pass++) {
		uint64_t forged = pass == 0 ? UINT64_MAX : (uint64_t)1 << 62;

		r = fire(dtp, 1);
		*(int64_t *)(r + l1.recs[0].dtrd_offset) = 100 + pass;
		DTRACE_RECORD_STORE_TIMESTAMP((dtrace_rechdr_t *)r, forged);
		r = fire(dtp, 1);
		*(int64_t *)(r + l1.recs[0].dtrd_offset) = 200 + pass;
		DTRACE_RECORD_STORE_TIMESTAMP((dtrace_rechdr_t *)r, 10);
		memcpy(snapdata, rbuf, rlen);
		snaplen = rlen;
		rlen = 0;
		dt_capture_open(&cap);
		DT_CHECK(dtrace_consume(dtp, cap.fp, NULL, NULL, NULL) == 0);
		out = dt_capture_close(&cap);
		DT_CHECK(strstr(out, pass == 0 ? "100" : pass == 1 ? "101" : "102") != NULL);
		DT_CHECK(strstr(out, pass == 0 ? "200" : pass == 1 ? "201" : "202") != NULL);
		free(out);
		/* nothing left over for the next pass */
		DT_CHECK(dtp->dt_cpubufs[0].dtcb_size == 0);
	}
	dtp->dt_backend = NULL;
	dt_handle_destroy(dtp);
}

/*
 * Not corruption: a wrapped ring whose oldest record sits at 4 modulo 8 (a
 * filler word) comes out with every record still at its alignment, so the
 * checks above never refuse a ring the core wrote.
 */
static void
test_ring_rotation_keeps_alignment(void)
{
	static const dt_backend_t snap = {.name = "snap", .ctl = snap_ctl, .close = noop_close};
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_capture_t cap;
	dt_layout_t l;
	char *out;

	dt_layout_init(&l, sizeof(dtrace_rechdr_t));
	dt_layout_add(&l, DTRACEACT_DIFEXPR, 8, 8, 0); /* 24-byte firings */
	dt_test_epid(dtp, 3, 3, "test", "", "", "ring", &l);
	DT_CHECK(dtrace_setopt(dtp, "quiet", NULL) == 0);
	dtp->dt_backend = &snap;
	dtp->dt_active = 1;
	dtp->dt_stopped = 1;
	dtp->dt_options[DTRACEOPT_BUFSIZE] = sizeof(snapdata);
	dtp->dt_options[DTRACEOPT_SWITCHRATE] = 0;

	/* 56 bytes: filler at 0 and 4 (the oldest), firings at 8 and 32 */
	memset(snapdata, 0, sizeof(snapdata));
	for (int i = 0; i < 2; i++) {
		char *r = snapdata + 8 + 24 * i;
		int64_t v = 41 + i;

		((dtrace_rechdr_t *)(void *)r)->dtrh_epid = 3;
		memcpy(r + l.recs[0].dtrd_offset, &v, sizeof(v));
	}
	snaplen = 56;
	snapoldest = 4;
	dt_capture_open(&cap);
	DT_CHECK(dtrace_consume(dtp, cap.fp, NULL, NULL, NULL) == 0);
	out = dt_capture_close(&cap);
	DT_EXPECT_STR(out, "4142");
	free(out);
	snapoldest = 0;
	dtp->dt_backend = NULL;
	dt_handle_destroy(dtp);
}

/* --- Random corruption ------------------------------------------------------ */

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t
next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Good firings and entries, then a few bytes, words or EPIDs changed. */
static void
test_random_corruption(void)
{
	static char abuf[2048] __attribute__((aligned(8)));
	dt_layout_t l1, l2;

	for (int round = 0; round < 3000; round++) {
		dtrace_hdl_t *dtp = records_handle(&l1, &l2);
		dt_capture_t cap;
		size_t alen = 0;
		int64_t v[7] = {0};
		int nflip = 1 + (int)(next_random() % 8);

		agg_add(dtp, 1, DTRACEAGG_AVG, 16, 0);
		agg_add(dtp, 2, DTRACEAGG_STDDEV, 32, 0);
		agg_add(dtp, 3, DTRACEAGG_LQUANTIZE, 8 * 7, DTRACE_LQUANTIZE_ARG(10, 4, 0));
		for (int i = 0; i < 6; i++) {
			char *r = fire(dtp, (dtrace_epid_t)(1 + next_random() % 2));

			memset(r + sizeof(dtrace_rechdr_t), 'x', 16);
		}
		v[0] = (int64_t)DTRACE_LQUANTIZE_ARG(10, 4, 0);
		for (int i = 0; i < 6; i++) {
			dtrace_aggid_t id = (dtrace_aggid_t)(1 + next_random() % 3);

			v[1] = (int64_t)next_random();
			alen = entry(abuf, alen, id, v, id == 1 ? 2 : id == 2 ? 4 : 7);
		}
		for (int i = 0; i < nflip; i++) {
			uint64_t what = next_random();
			char *b = (what & 1) ? rbuf : abuf;
			size_t len = (what & 1) ? rlen : alen;
			size_t at;

			if (len == 0)
				continue;
			at = (size_t)(what >> 8) % len;

			switch ((what >> 1) & 3) {
			case 0: /* a byte */
				b[at] = (char)(what >> 40);
				break;
			case 1: /* a word on the 4-byte grid: an EPID, an id, a length */
				at &= ~(size_t)3;
				*(uint32_t *)(void *)(b + at) = (uint32_t)(what >> 32) % 8;
				break;
			case 2: /* a 64-bit value */
				at &= ~(size_t)7;
				*(uint64_t *)(void *)(b + at) = next_random();
				break;
			default: /* cut short */
				if (what & 1)
					rlen = at;
				else
					alen = at;
				break;
			}
		}
		dt_capture_open(&cap);
		(void)dt_consume_records(dtp, cap.fp, 0, rbuf, rlen, NULL, NULL, NULL);
		(void)dt_aggregate_merge(dtp, 0, abuf, alen);
		(void)dtrace_aggregate_print(dtp, cap.fp, NULL);
		free(dt_capture_close(&cap));
		rlen = 0;
		dt_handle_destroy(dtp);
	}
}

int
main(void)
{
	test_bad_records();
	test_bad_aggregations();
	test_corrupt_header_refused_by_core();
	test_future_timestamps_do_not_hold_records();
	test_ring_rotation_keeps_alignment();
	test_random_corruption();
	return dt_test_result("test_consume_corrupt_snapshots");
}
