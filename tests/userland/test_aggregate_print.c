/*
 * test_aggregate_print: aggregation snapshots from several CPUs merge into
 * one value per key, and print exactly as DTrace prints them: the default
 * layout of keys and values, quantize()/lquantize()/llquantize()
 * distributions, the value-then-key order and the aggsort* options, printa()
 * with formats and with several aggregations, normalize(), trunc() and
 * clear(), and per-CPU values with aggpercpu.
 */
#include <stdint.h>

#include "dt_testutil.h"

/* Layout of an aggregation record: aggid, id record, keys..., value. */
typedef struct dt_agg {
	dt_layout_t l;
	dtrace_aggid_t aggid;
	dtrace_aggvarid_t varid;
	int vrec;
} dt_agg_t;

static void
agg_begin(dt_agg_t *a, dtrace_aggid_t aggid, dtrace_aggvarid_t varid)
{
	memset(a, 0, sizeof(*a));
	dt_layout_init(&a->l, sizeof(dtrace_aggid_t));
	a->aggid = aggid;
	a->varid = varid;
	dt_layout_add(&a->l, DTRACEACT_DIFEXPR, sizeof(dtrace_aggvarid_t), 8, 0);
}

static void
agg_key(dt_agg_t *a, uint32_t size)
{
	dt_layout_add(&a->l, DTRACEACT_DIFEXPR, size, size <= 8 ? (uint16_t)size : 1, 0);
}

static void
agg_end(dtrace_hdl_t *dtp, dt_agg_t *a, dtrace_actkind_t fn, uint32_t size, uint64_t arg,
	const char *name)
{
	a->vrec = dt_layout_add(&a->l, fn, size, 8, arg);
	dt_test_aggid(dtp, a->aggid, 1, name, &a->l);
}

/* A snapshot buffer being filled with records of several aggregations. */
typedef struct dt_snap {
	char buf[65536] __attribute__((aligned(8)));
	size_t size;
} dt_snap_t;

/* Append one record; keys are given as pointers to their bytes. */
static char *
snap_add(dt_snap_t *s, const dt_agg_t *a, const void *const *keys)
{
	char *rec = s->buf + s->size;
	int i;

	memset(rec, 0, dt_layout_total(&a->l));
	*(dtrace_aggid_t *)rec = a->aggid;
	memcpy(rec + a->l.recs[0].dtrd_offset, &a->varid, sizeof(a->varid));
	for (i = 1; i < a->vrec; i++)
		memcpy(rec + a->l.recs[i].dtrd_offset, keys[i - 1], a->l.recs[i].dtrd_size);
	s->size += dt_layout_total(&a->l);
	return rec + a->l.recs[a->vrec].dtrd_offset;
}

static void
snap_int(dt_snap_t *s, const dt_agg_t *a, const void *const *keys, int64_t v)
{
	memcpy(snap_add(s, a, keys), &v, sizeof(v));
}

static char *
print_all(dtrace_hdl_t *dtp)
{
	dt_capture_t cap;

	dt_capture_open(&cap);
	DT_CHECK(dtrace_aggregate_print(dtp, cap.fp, NULL) == 0);
	return dt_capture_close(&cap);
}

static void
reset_printed(dtrace_hdl_t *dtp)
{
	uint32_t i;

	for (i = 0; i < dtp->dt_maxagg; i++) {
		if (dtp->dt_aggdesc[i] != NULL)
			dtp->dt_aggdesc[i]->dtagd_flags = 0;
	}
}

static const char *const s_bash = "bash", *const s_sshd = "sshd", *const s_zsh = "zsh";

static void
test_count_by_string(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_snap_t *s = calloc(1, sizeof(*s));
	char kb[16] = "bash", ks[16] = "sshd", kz[16] = "zsh";
	const void *b[] = {kb}, *ss[] = {ks}, *z[] = {kz};
	dt_agg_t a;
	char *out;

	(void)s_bash, (void)s_sshd, (void)s_zsh;
	agg_begin(&a, 1, 1);
	agg_key(&a, 16);
	agg_end(dtp, &a, DTRACEAGG_COUNT, 8, 0, "");

	/* CPU 0 then CPU 1: the same key on both merges into one sum */
	snap_int(s, &a, b, 3);
	snap_int(s, &a, ss, 1);
	DT_CHECK(dt_aggregate_merge(dtp, 0, s->buf, s->size) == 0);
	s->size = 0;
	snap_int(s, &a, b, 2);
	snap_int(s, &a, z, 7);
	DT_CHECK(dt_aggregate_merge(dtp, 1, s->buf, s->size) == 0);

	out = print_all(dtp);
	DT_EXPECT_STR(out, "  sshd                                                              1\n"
	                   "  bash                                                              5\n"
	                   "  zsh                                                               7\n");
	free(out);

	/* aggsortkey: by key; aggsortrev: reversed */
	DT_CHECK(dtrace_setopt(dtp, "aggsortkey", NULL) == 0);
	out = print_all(dtp);
	DT_EXPECT_STR(out, "  bash                                                              5\n"
	                   "  sshd                                                              1\n"
	                   "  zsh                                                               7\n");
	free(out);
	DT_CHECK(dtrace_setopt(dtp, "aggsortrev", NULL) == 0);
	out = print_all(dtp);
	DT_EXPECT_STR(out, "  zsh                                                               7\n"
	                   "  sshd                                                              1\n"
	                   "  bash                                                              5\n");
	free(out);
	DT_CHECK(dtrace_setopt(dtp, "aggsortkey", "false") == 0);
	out = print_all(dtp);
	DT_EXPECT_STR(out, "  zsh                                                               7\n"
	                   "  bash                                                              5\n"
	                   "  sshd                                                              1\n");
	free(out);

	/* dtrace_aggregate_clear zeroes the values and keeps the keys */
	DT_CHECK(dtrace_setopt(dtp, "aggsortrev", "no") == 0);
	dtrace_aggregate_clear(dtp);
	out = print_all(dtp);
	DT_EXPECT_STR(out, "  bash                                                              0\n"
	                   "  sshd                                                              0\n"
	                   "  zsh                                                               0\n");
	free(out);
	free(s);
	dt_handle_destroy(dtp);
}

static void
test_integer_keys(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_snap_t *s = calloc(1, sizeof(*s));
	int64_t k1 = 1, km1 = -1, k2 = 2;
	int32_t i7 = 7;
	uint8_t c254 = 254;
	const void *p1[] = {&k1}, *pm1[] = {&km1}, *p2[] = {&k2};
	dt_agg_t a, b;
	char *out;

	agg_begin(&a, 1, 1);
	agg_key(&a, 8);
	agg_end(dtp, &a, DTRACEAGG_SUM, 8, 0, "s");
	snap_int(s, &a, p1, 10);
	snap_int(s, &a, pm1, 10);
	snap_int(s, &a, p2, -3);

	/* two keys of other sizes */
	agg_begin(&b, 2, 2);
	agg_key(&b, 4);
	agg_key(&b, 1);
	agg_end(dtp, &b, DTRACEAGG_MAX, 8, 0, "m");
	{
		const void *k[] = {&i7, &c254};

		snap_int(s, &b, k, 42);
	}
	DT_CHECK(dt_aggregate_merge(dtp, 0, s->buf, s->size) == 0);

	/* by value, ties broken by the key compared as unsigned */
	out = print_all(dtp);
	DT_EXPECT_STR(out, "                2               -3\n"
	                   "                1               10\n"
	                   "               -1               10\n"
	                   "        7 254               42\n");
	free(out);

	/* aggsortkey: keys as unsigned values, so -1 sorts last */
	DT_CHECK(dtrace_setopt(dtp, "aggsortkey", "1") == 0);
	out = print_all(dtp);
	DT_EXPECT_STR(out, "                1               10\n"
	                   "                2               -3\n"
	                   "               -1               10\n"
	                   "        7 254               42\n");
	free(out);
	free(s);
	dt_handle_destroy(dtp);
}

static void
test_keypos(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_snap_t *s = calloc(1, sizeof(*s));
	int64_t k1 = 1, k2 = 2, k8 = 8, k9 = 9;
	const void *a19[] = {&k1, &k9}, *a28[] = {&k2, &k8};
	dt_agg_t a;
	char *out;

	agg_begin(&a, 1, 1);
	agg_key(&a, 8);
	agg_key(&a, 8);
	agg_end(dtp, &a, DTRACEAGG_COUNT, 8, 0, "");
	snap_int(s, &a, a19, 1);
	snap_int(s, &a, a28, 1);
	DT_CHECK(dt_aggregate_merge(dtp, 0, s->buf, s->size) == 0);

	DT_CHECK(dtrace_setopt(dtp, "aggsortkey", NULL) == 0);
	out = print_all(dtp);
	DT_EXPECT_STR(out, "                1                9                1\n"
	                   "                2                8                1\n");
	free(out);
	/* aggsortkeypos=1: the second key decides */
	DT_CHECK(dtrace_setopt(dtp, "aggsortkeypos", "1") == 0);
	out = print_all(dtp);
	DT_EXPECT_STR(out, "                2                8                1\n"
	                   "                1                9                1\n");
	free(out);
	free(s);
	dt_handle_destroy(dtp);
}

static void
test_avg_min_max_stddev(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_snap_t *s = calloc(1, sizeof(*s));
	dt_agg_t avg, mn, mx, sd;
	char *out, *v;
	int64_t d[4];

	agg_begin(&avg, 1, 1);
	agg_end(dtp, &avg, DTRACEAGG_AVG, 16, 0, "avg");
	agg_begin(&mn, 2, 2);
	agg_end(dtp, &mn, DTRACEAGG_MIN, 8, 0, "min");
	agg_begin(&mx, 3, 3);
	agg_end(dtp, &mx, DTRACEAGG_MAX, 8, 0, "max");
	agg_begin(&sd, 4, 4);
	agg_end(dtp, &sd, DTRACEAGG_STDDEV, 32, 0, "sd");

	/* CPU 0 saw 2 and 4; CPU 1 saw 9 */
	d[0] = 2, d[1] = 6;
	memcpy(snap_add(s, &avg, NULL), d, 16);
	snap_int(s, &mn, NULL, 2);
	snap_int(s, &mx, NULL, 4);
	d[0] = 2, d[1] = 6, d[2] = 4 + 16, d[3] = 0;
	memcpy(snap_add(s, &sd, NULL), d, 32);
	DT_CHECK(dt_aggregate_merge(dtp, 0, s->buf, s->size) == 0);
	s->size = 0;
	d[0] = 1, d[1] = 9;
	memcpy(snap_add(s, &avg, NULL), d, 16);
	snap_int(s, &mn, NULL, 9);
	snap_int(s, &mx, NULL, 9);
	d[0] = 1, d[1] = 9, d[2] = 81, d[3] = 0;
	v = snap_add(s, &sd, NULL);
	memcpy(v, d, 32);
	DT_CHECK(dt_aggregate_merge(dtp, 1, s->buf, s->size) == 0);

	/* avg(2,4,9) = 5; stddev = isqrt(101/3 - 25) = isqrt(8) = 2 */
	out = print_all(dtp);
	DT_EXPECT_STR(out, "                5\n"
	                   "                2\n"
	                   "                9\n"
	                   "                2\n");
	free(out);
	free(s);
	dt_handle_destroy(dtp);
}

static void
test_quantize(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_snap_t *s = calloc(1, sizeof(*s));
	int64_t *q;
	dt_agg_t a;
	char *out;

	agg_begin(&a, 1, 1);
	agg_end(dtp, &a, DTRACEAGG_QUANTIZE, DTRACE_QUANTIZE_NBUCKETS * 8, 0, "q");
	/* quantize of 1, 2, 3 and 100 */
	q = (int64_t *)snap_add(s, &a, NULL);
	memset(q, 0, DTRACE_QUANTIZE_NBUCKETS * 8);
	q[DTRACE_QUANTIZE_ZEROBUCKET + 1] = 1;
	q[DTRACE_QUANTIZE_ZEROBUCKET + 2] = 1;
	DT_CHECK(dt_aggregate_merge(dtp, 0, s->buf, s->size) == 0);
	s->size = 0;
	q = (int64_t *)snap_add(s, &a, NULL);
	memset(q, 0, DTRACE_QUANTIZE_NBUCKETS * 8);
	q[DTRACE_QUANTIZE_ZEROBUCKET + 2] = 1;
	q[DTRACE_QUANTIZE_ZEROBUCKET + 7] = 1;
	DT_CHECK(dt_aggregate_merge(dtp, 1, s->buf, s->size) == 0);

	out = print_all(dtp);
	DT_EXPECT_STR(out, "\n"
	                   "           value  ------------- Distribution ------------- count    \n"
	                   "               0 |                                         0        \n"
	                   "               1 |@@@@@@@@@@                               1        \n"
	                   "               2 |@@@@@@@@@@@@@@@@@@@@                     2        \n"
	                   "               4 |                                         0        \n"
	                   "               8 |                                         0        \n"
	                   "              16 |                                         0        \n"
	                   "              32 |                                         0        \n"
	                   "              64 |@@@@@@@@@@                               1        \n"
	                   "             128 |                                         0        \n"
	                   "\n");
	free(out);

	/* a cleared distribution shows the buckets around zero */
	dtrace_aggregate_clear(dtp);
	out = print_all(dtp);
	DT_EXPECT_STR(out, "\n"
	                   "           value  ------------- Distribution ------------- count    \n"
	                   "              -1 |                                         0        \n"
	                   "               0 |                                         0        \n"
	                   "               1 |                                         0        \n"
	                   "\n");
	free(out);
	free(s);
	dt_handle_destroy(dtp);
}

static void
test_quantize_negative(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_snap_t *s = calloc(1, sizeof(*s));
	int64_t *q;
	dt_agg_t a;
	char *out;

	agg_begin(&a, 1, 1);
	agg_end(dtp, &a, DTRACEAGG_QUANTIZE, DTRACE_QUANTIZE_NBUCKETS * 8, 0, "q");
	/* quantize(5, -1) and quantize(1, 1): a negative count in bucket 4 */
	q = (int64_t *)snap_add(s, &a, NULL);
	memset(q, 0, DTRACE_QUANTIZE_NBUCKETS * 8);
	q[DTRACE_QUANTIZE_ZEROBUCKET + 3] = -1;
	q[DTRACE_QUANTIZE_ZEROBUCKET + 1] = 1;
	DT_CHECK(dt_aggregate_merge(dtp, 0, s->buf, s->size) == 0);

	out = print_all(dtp);
	DT_EXPECT_STR(out, "\n"
	                   "           value  ------------- Distribution ------------- count    \n"
	                   "               0                     |                     0        \n"
	                   "               1                     |@@@@@@@@@@           1        \n"
	                   "               2                     |                     0        \n"
	                   "               4           @@@@@@@@@@|                     -1       \n"
	                   "               8                     |                     0        \n"
	                   "\n");
	free(out);
	free(s);
	dt_handle_destroy(dtp);
}

static void
test_lquantize(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_snap_t *s = calloc(1, sizeof(*s));
	uint64_t arg = DTRACE_LQUANTIZE_ARG(2, 5, 0); /* lquantize(x, 0, 10, 2) */
	int64_t *q;
	dt_agg_t a;
	char *out;

	agg_begin(&a, 1, 1);
	agg_end(dtp, &a, DTRACEAGG_LQUANTIZE, 8 * (1 + 5 + 2), arg, "lq");
	/* -1, 3, 3, 11 */
	q = (int64_t *)snap_add(s, &a, NULL);
	memset(q, 0, 8 * 8);
	q[0] = (int64_t)arg;
	q[1] = 1;
	q[3] = 1;
	DT_CHECK(dt_aggregate_merge(dtp, 0, s->buf, s->size) == 0);
	s->size = 0;
	q = (int64_t *)snap_add(s, &a, NULL);
	memset(q, 0, 8 * 8);
	q[0] = (int64_t)arg;
	q[3] = 1;
	q[7] = 1;
	DT_CHECK(dt_aggregate_merge(dtp, 1, s->buf, s->size) == 0);

	out = print_all(dtp);
	DT_EXPECT_STR(out, "\n"
	                   "           value  ------------- Distribution ------------- count    \n"
	                   "             < 0 |@@@@@@@@@@                               1        \n"
	                   "               0 |                                         0        \n"
	                   "               2 |@@@@@@@@@@@@@@@@@@@@                     2        \n"
	                   "               4 |                                         0        \n"
	                   "               6 |                                         0        \n"
	                   "               8 |                                         0        \n"
	                   "           >= 10 |@@@@@@@@@@                               1        \n"
	                   "\n");
	free(out);

	/* clear() keeps lquantize()'s parameters */
	dtrace_aggregate_clear(dtp);
	out = print_all(dtp);
	DT_EXPECT_STR(out, "\n"
	                   "           value  ------------- Distribution ------------- count    \n"
	                   "             < 0 |                                         0        \n"
	                   "               0 |                                         0        \n"
	                   "               2 |                                         0        \n"
	                   "\n");
	free(out);
	free(s);
	dt_handle_destroy(dtp);
}

static void
test_llquantize(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_snap_t *s = calloc(1, sizeof(*s));
	uint64_t arg = DTRACE_LLQUANTIZE_ARG(10, 0, 2, 10); /* llquantize(x, 10, 0, 2, 10) */
	const int nbins = 1 + 3 * 9 + 1;
	int64_t *q;
	dt_agg_t a;
	char *out;

	agg_begin(&a, 1, 1);
	agg_end(dtp, &a, DTRACEAGG_LLQUANTIZE, 8 * (1 + (uint32_t)nbins), arg, "llq");
	/* 5, 50, 5000 */
	q = (int64_t *)snap_add(s, &a, NULL);
	memset(q, 0, 8 * (size_t)(1 + nbins));
	q[0] = (int64_t)arg;
	q[1 + 5] = 1;
	q[1 + 14] = 1;
	q[1 + 28] = 1;
	DT_CHECK(dt_aggregate_merge(dtp, 0, s->buf, s->size) == 0);

	out = print_all(dtp);
	DT_EXPECT_STR(out, "\n"
	                   "           value  ------------- Distribution ------------- count    \n"
	                   "               4 |                                         0        \n"
	                   "               5 |@@@@@@@@@@@@@                            1        \n"
	                   "               6 |                                         0        \n"
	                   "               7 |                                         0        \n"
	                   "               8 |                                         0        \n"
	                   "               9 |                                         0        \n"
	                   "              10 |                                         0        \n"
	                   "              20 |                                         0        \n"
	                   "              30 |                                         0        \n"
	                   "              40 |                                         0        \n"
	                   "              50 |@@@@@@@@@@@@@                            1        \n"
	                   "              60 |                                         0        \n"
	                   "              70 |                                         0        \n"
	                   "              80 |                                         0        \n"
	                   "              90 |                                         0        \n"
	                   "             100 |                                         0        \n"
	                   "             200 |                                         0        \n"
	                   "             300 |                                         0        \n"
	                   "             400 |                                         0        \n"
	                   "             500 |                                         0        \n"
	                   "             600 |                                         0        \n"
	                   "             700 |                                         0        \n"
	                   "             800 |                                         0        \n"
	                   "             900 |                                         0        \n"
	                   "         >= 1000 |@@@@@@@@@@@@@                            1        \n"
	                   "\n");
	free(out);
	free(s);
	dt_handle_destroy(dtp);
}

/* printa() records: one PRINTA record per aggregation, one statement. */
static void
printa_epid(dtrace_hdl_t *dtp, dtrace_epid_t epid, int naggs, uint16_t format, dt_layout_t *l)
{
	int i;

	dt_layout_init(l, sizeof(dtrace_rechdr_t));
	for (i = 0; i < naggs; i++) {
		int r = dt_layout_add(l, DTRACEACT_PRINTA, 8, 8, 0);

		l->recs[r].dtrd_format = format;
		l->recs[r].dtrd_uarg = 77;
	}
	dt_test_epid(dtp, epid, 2, "dtrace", "", "", "END", l);
}

static char *
consume_printa(dtrace_hdl_t *dtp, dtrace_epid_t epid, const dt_layout_t *l,
	       const dtrace_aggvarid_t *ids, int n)
{
	char buf[256] __attribute__((aligned(8)));
	dtrace_rechdr_t *hdr = (dtrace_rechdr_t *)buf;
	dt_capture_t cap;
	int i;

	memset(buf, 0, sizeof(buf));
	hdr->dtrh_epid = epid;
	for (i = 0; i < n; i++)
		memcpy(buf + l->recs[i].dtrd_offset, &ids[i], sizeof(ids[i]));
	dt_capture_open(&cap);
	DT_CHECK(dt_consume_records(dtp, cap.fp, 0, buf, dt_layout_total(l), NULL, NULL, NULL) == 0);
	return dt_capture_close(&cap);
}

static void
test_printa(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_snap_t *s = calloc(1, sizeof(*s));
	int64_t k1 = 1, k2 = 2, k3 = 3;
	const void *p1[] = {&k1}, *p2[] = {&k2}, *p3[] = {&k3};
	dtrace_aggvarid_t ids[2] = {4, 5};
	dt_layout_t l;
	dt_agg_t c, sm;
	char *out;

	agg_begin(&c, 1, 4);
	agg_key(&c, 8);
	agg_end(dtp, &c, DTRACEAGG_COUNT, 8, 0, "c");
	agg_begin(&sm, 2, 5);
	agg_key(&sm, 8);
	agg_end(dtp, &sm, DTRACEAGG_SUM, 8, 0, "s");
	snap_int(s, &c, p1, 2);
	snap_int(s, &c, p2, 1);
	snap_int(s, &sm, p2, 10);
	snap_int(s, &sm, p3, 30);
	DT_CHECK(dt_aggregate_merge(dtp, 0, s->buf, s->size) == 0);

	/* printa("%d: %@d\n", @c) */
	DT_CHECK(dt_format_add(dtp, 1, "%d: %@d\n", 1) == 0);
	printa_epid(dtp, 1, 1, 1, &l);
	out = consume_printa(dtp, 1, &l, ids, 1);
	DT_EXPECT_STR(out, "2: 1\n1: 2\n");
	free(out);

	/* printa("%d %@d %@d\n", @c, @s): keys of either, zero where absent,
	 * sorted by the first aggregation's value */
	DT_CHECK(dt_format_add(dtp, 2, "%d %@d %@d\n", 1) == 0);
	printa_epid(dtp, 2, 2, 2, &l);
	out = consume_printa(dtp, 2, &l, ids, 2);
	DT_EXPECT_STR(out, "3 0 30\n2 1 10\n1 2 0\n");
	free(out);

	/* aggsortpos=1: the second aggregation's value decides */
	DT_CHECK(dtrace_setopt(dtp, "aggsortpos", "1") == 0);
	out = consume_printa(dtp, 2, &l, ids, 2);
	DT_EXPECT_STR(out, "1 2 0\n2 1 10\n3 0 30\n");
	free(out);
	DT_CHECK(dtrace_setopt(dtp, "aggsortpos", "") == 0);

	/* printa(@c, @s) without a format */
	printa_epid(dtp, 3, 2, 0, &l);
	out = consume_printa(dtp, 3, &l, ids, 2);
	DT_EXPECT_STR(out, "\n"
	                   "                3                0               30\n"
	                   "                2                1               10\n"
	                   "                1                2                0\n");
	free(out);

	/* everything printed by printa() is left out of the final dump */
	out = print_all(dtp);
	DT_EXPECT_STR(out, "");
	free(out);
	reset_printed(dtp);
	out = print_all(dtp);
	DT_EXPECT_STR(out, "                2                1\n"
	                   "                1                2\n"
	                   "                2               10\n"
	                   "                3               30\n");
	free(out);
	free(s);
	dt_handle_destroy(dtp);
}

/* normalize(@, n), trunc(@, n) and clear(@) arrive as library actions. */
static void
libact(dtrace_hdl_t *dtp, dtrace_epid_t epid, uint64_t act, dtrace_aggvarid_t id, int64_t v,
       int hasval)
{
	char buf[128] __attribute__((aligned(8)));
	dtrace_rechdr_t *hdr = (dtrace_rechdr_t *)buf;
	dt_layout_t l;
	dt_capture_t cap;
	int r0, r1 = -1;
	char *out;

	dt_layout_init(&l, sizeof(dtrace_rechdr_t));
	r0 = dt_layout_add(&l, DTRACEACT_LIBACT, 8, 8, act);
	if (hasval)
		r1 = dt_layout_add(&l, DTRACEACT_LIBACT, 8, 8, act);
	dt_test_epid(dtp, epid, 1, "dtrace", "", "", "BEGIN", &l);
	memset(buf, 0, sizeof(buf));
	hdr->dtrh_epid = epid;
	memcpy(buf + l.recs[r0].dtrd_offset, &id, 8);
	if (hasval)
		memcpy(buf + l.recs[r1].dtrd_offset, &v, 8);
	dt_capture_open(&cap);
	DT_CHECK(dt_consume_records(dtp, cap.fp, 0, buf, dt_layout_total(&l), NULL, NULL, NULL) == 0);
	out = dt_capture_close(&cap);
	DT_EXPECT_STR(out, ""); /* these actions print nothing */
	free(out);
}

static void
test_normalize_trunc(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_snap_t *s = calloc(1, sizeof(*s));
	int64_t k[4] = {1, 2, 3, 4};
	dt_agg_t a;
	char *out;
	int i;

	agg_begin(&a, 1, 1);
	agg_key(&a, 8);
	agg_end(dtp, &a, DTRACEAGG_SUM, 8, 0, "a");
	for (i = 0; i < 4; i++) {
		const void *p[] = {&k[i]};

		snap_int(s, &a, p, 100 * (i + 1));
	}
	DT_CHECK(dt_aggregate_merge(dtp, 0, s->buf, s->size) == 0);

	libact(dtp, 10, DT_ACT_NORMALIZE, 1, 100, 1);
	out = print_all(dtp);
	DT_EXPECT_STR(out, "                1                1\n"
	                   "                2                2\n"
	                   "                3                3\n"
	                   "                4                4\n");
	free(out);

	libact(dtp, 11, DT_ACT_DENORMALIZE, 1, 0, 0);
	libact(dtp, 12, DT_ACT_TRUNC, 1, 2, 1); /* keep the two largest */
	out = print_all(dtp);
	DT_EXPECT_STR(out, "                3              300\n"
	                   "                4              400\n");
	free(out);

	libact(dtp, 13, DT_ACT_TRUNC, 1, -1, 1); /* keep the smallest */
	out = print_all(dtp);
	DT_EXPECT_STR(out, "                3              300\n");
	free(out);

	libact(dtp, 14, DT_ACT_CLEAR, 1, 0, 0);
	out = print_all(dtp);
	DT_EXPECT_STR(out, "                3                0\n");
	free(out);
	free(s);
	dt_handle_destroy(dtp);
}

typedef struct percpu_seen {
	int64_t v[2];
	int n;
} percpu_seen_t;

static int
percpu_walk(const dtrace_aggdata_t *ad, void *arg)
{
	percpu_seen_t *seen = arg;

	if (ad->dtada_percpu == NULL || ad->dtada_ncpu < 2)
		return DTRACE_AGGWALK_ERROR;
	memcpy(&seen->v[0], ad->dtada_percpu[0], 8);
	memcpy(&seen->v[1], ad->dtada_percpu[1], 8);
	seen->n++;
	return DTRACE_AGGWALK_NEXT;
}

static void
test_percpu(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_snap_t *s = calloc(1, sizeof(*s));
	percpu_seen_t seen = {{0, 0}, 0};
	dt_agg_t a;

	dtp->dt_ncpu = 2;
	DT_CHECK(dtrace_setopt(dtp, "aggpercpu", NULL) == 0);
	agg_begin(&a, 1, 1);
	agg_end(dtp, &a, DTRACEAGG_COUNT, 8, 0, "");
	snap_int(s, &a, NULL, 3);
	DT_CHECK(dt_aggregate_merge(dtp, 0, s->buf, s->size) == 0);
	s->size = 0;
	snap_int(s, &a, NULL, 4);
	DT_CHECK(dt_aggregate_merge(dtp, 1, s->buf, s->size) == 0);
	s->size = 0;
	snap_int(s, &a, NULL, 1);
	DT_CHECK(dt_aggregate_merge(dtp, 1, s->buf, s->size) == 0);

	DT_CHECK(dtrace_aggregate_walk(dtp, percpu_walk, &seen) == 0);
	DT_CHECK(seen.n == 1);
	DT_CHECK(seen.v[0] == 3 && seen.v[1] == 5);
	free(s);
	dt_handle_destroy(dtp);
}

/* @c[k] = count() in two clauses: two aggregation ids, one aggregation */
static void
test_two_clauses_one_aggregation(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_snap_t *s = calloc(1, sizeof(*s));
	char ka[16] = "a", kb[16] = "b";
	const void *pa[] = {ka}, *pb[] = {kb};
	dt_agg_t c1, c2;
	char *out;

	agg_begin(&c1, 1, 1);
	agg_key(&c1, 16);
	agg_end(dtp, &c1, DTRACEAGG_COUNT, 8, 0, "c");
	agg_begin(&c2, 2, 1);
	agg_key(&c2, 16);
	agg_end(dtp, &c2, DTRACEAGG_COUNT, 8, 0, "c");
	snap_int(s, &c1, pa, 1);
	snap_int(s, &c2, pa, 2);
	snap_int(s, &c2, pb, 5);
	DT_CHECK(dt_aggregate_merge(dtp, 0, s->buf, s->size) == 0);
	out = print_all(dtp);
	DT_EXPECT_STR(out, "  a                                                                 3\n"
	                   "  b                                                                 5\n");
	free(out);
	free(s);
	dt_handle_destroy(dtp);
}

static void
test_bad_snapshot(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	char buf[64] __attribute__((aligned(8)));
	dt_agg_t a;

	agg_begin(&a, 1, 1);
	agg_end(dtp, &a, DTRACEAGG_COUNT, 8, 0, "");
	memset(buf, 0, sizeof(buf));
	/* a record running past the end of the snapshot */
	*(dtrace_aggid_t *)buf = 1;
	DT_CHECK(dt_aggregate_merge(dtp, 0, buf, 12) == -1);
	DT_CHECK(dtrace_errno(dtp) == EDT_DMISMATCH);
	/* filler words alone are fine */
	memset(buf, 0, sizeof(buf));
	DT_CHECK(dt_aggregate_merge(dtp, 0, buf, 16) == 0);
	dt_handle_destroy(dtp);
}

int
main(void)
{
	test_count_by_string();
	test_integer_keys();
	test_keypos();
	test_avg_min_max_stddev();
	test_quantize();
	test_quantize_negative();
	test_lquantize();
	test_llquantize();
	test_printa();
	test_normalize_trunc();
	test_percpu();
	test_two_clauses_one_aggregation();
	test_bad_snapshot();
	return dt_test_result("test_aggregate_print");
}
