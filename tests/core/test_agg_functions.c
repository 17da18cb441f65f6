/*
 * Aggregations: every aggregating function's value (negative values,
 * quantize boundaries, lquantize under/overflow, llquantize magnitudes),
 * through dtrace_aggregate() and the AGGSNAP snapshot, laid out as DTrace's
 * consumer reads them.
 */
#include "dtrace_impl.h"
#include "test_util.h"
#include "testport.h"

/*
 * One ECB's worth of layout, as fw's dtrace_ecb_resize() makes it for
 *   @[<varid>, <int key>] = f(value[, increment])
 * record header 0..12; key at base 8: aggid 8..12, varid (8 bytes) at 16,
 * int key (4 bytes) at 24, optional zero-sized increment; value at 32.
 */
typedef struct agg_fixture {
	dtrace_action_t varid, key, incr;
	dtrace_aggregation_t agg;
	dtrace_ecb_t ecb;
} agg_fixture_t;

static dtrace_state_t state;

static void
fixture(agg_fixture_t *f, dtrace_aggid_t id, dtrace_actkind_t kind, uint32_t valsize,
	uint64_t arg, bool hasarg, uint64_t initial)
{
	memset(f, 0, sizeof(*f));
	f->varid.dta_kind = DTRACEACT_DIFEXPR;
	f->varid.dta_intuple = 1;
	f->varid.dta_rec = (dtrace_recdesc_t){.dtrd_action = DTRACEACT_DIFEXPR,
					      .dtrd_size = 8,
					      .dtrd_offset = 16,
					      .dtrd_alignment = 8};
	f->key.dta_kind = DTRACEACT_DIFEXPR;
	f->key.dta_intuple = 1;
	f->key.dta_rec = (dtrace_recdesc_t){.dtrd_action = DTRACEACT_DIFEXPR,
					    .dtrd_size = 4,
					    .dtrd_offset = 24,
					    .dtrd_alignment = 4};
	f->incr.dta_kind = DTRACEACT_DIFEXPR;
	f->incr.dta_intuple = 1;
	f->incr.dta_rec = (dtrace_recdesc_t){.dtrd_action = DTRACEACT_DIFEXPR,
					     .dtrd_offset = 28,
					     .dtrd_alignment = 1};
	f->varid.dta_next = &f->key;
	f->key.dta_prev = &f->varid;
	if (hasarg) {
		f->key.dta_next = &f->incr;
		f->incr.dta_prev = &f->key;
		f->incr.dta_next = &f->agg.dtag_action;
		f->agg.dtag_action.dta_prev = &f->incr;
	} else {
		f->key.dta_next = &f->agg.dtag_action;
		f->agg.dtag_action.dta_prev = &f->key;
	}
	f->agg.dtag_action.dta_kind = kind;
	f->agg.dtag_action.dta_rec = (dtrace_recdesc_t){
		.dtrd_action = kind, .dtrd_size = valsize, .dtrd_offset = 32,
		.dtrd_alignment = 8, .dtrd_arg = arg};
	f->agg.dtag_id = id;
	f->agg.dtag_hasarg = hasarg;
	f->agg.dtag_initial = initial;
	f->agg.dtag_first = &f->varid;
	f->agg.dtag_base = 8;
	f->agg.dtag_ecb = &f->ecb;
	f->ecb.dte_epid = id + 10;
	f->ecb.dte_needed = 32 + valsize;
}

static void
state_init(int64_t aggsize)
{
	memset(&state, 0, sizeof(state));
	for (int i = 0; i < DTRACEOPT_MAX; i++)
		state.dts_options[i] = DTRACEOPT_UNSET;
	state.dts_options[DTRACEOPT_BUFSIZE] = 4096;
	state.dts_options[DTRACEOPT_AGGSIZE] = aggsize;
	state.dts_options[DTRACEOPT_NSPEC] = 0;
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	dtrace_buffer_activate(&state);
	state.dts_activity = DTRACE_ACTIVITY_ACTIVE;
}

/* Fire the fixture's ECB on `cpu`: record the tuple, then aggregate. */
static uint32_t
fire(agg_fixture_t *f, dtrace_cpuid_t cpu, uint64_t varid, int32_t key, uint64_t value,
     uint64_t incr)
{
	dtrace_buffer_t *buf = &state.dts_buffer[cpu];
	intptr_t offs = dtrace_buffer_reserve(buf, f->ecb.dte_needed, 8, &state, NULL);
	char *rec;

	CHECK(offs >= 0);
	if (offs < 0)
		return 0;
	rec = buf->dtb_tomax + offs;
	memset(rec, 0xee, f->ecb.dte_needed); /* garbage the key must not see */
	memcpy(rec + 16, &varid, 8);
	memcpy(rec + 24, &key, 4);
	return dtrace_aggregate(&f->agg, buf, offs, &state.dts_aggbuffer[cpu], value, incr);
}

static char snap[1 << 16];

/* AGGSNAP one CPU; returns the bytes. */
static uint64_t
aggsnap(dtrace_cpuid_t cpu, uint64_t *drops)
{
	dtrace_bufdesc_t desc;

	memset(&desc, 0, sizeof(desc));
	desc.dtbd_cpu = cpu;
	desc.dtbd_size = sizeof(snap);
	desc.dtbd_data = snap;
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_aggbuffer, &desc), 0);
	if (drops != NULL)
		*drops = desc.dtbd_drops;
	return desc.dtbd_size;
}

/* The value of key (varid, key) in a snapshot of entries of `fsize` bytes. */
static const uint64_t *
find(uint64_t len, uint32_t fsize, uint64_t varid, int32_t key, dtrace_aggid_t *idp)
{
	for (uint64_t o = 0; o + fsize <= len; o += fsize) {
		uint64_t v;
		int32_t k;

		memcpy(&v, snap + o + 8, 8);
		memcpy(&k, snap + o + 16, 4);
		if (v == varid && k == key) {
			if (idp != NULL)
				memcpy(idp, snap + o, 4);
			return (const uint64_t *)(const void *)(snap + o + 24);
		}
	}
	return NULL;
}

static void
test_count_sum_min_max_avg(void)
{
	agg_fixture_t fc, fs, fmin, fmax, favg;
	const uint64_t *v;
	uint64_t len;

	testport_reset(false);
	state_init(8192);
	fixture(&fc, 1, DTRACEAGG_COUNT, 8, 0, false, 0);
	fixture(&fs, 2, DTRACEAGG_SUM, 8, 0, false, 0);
	fixture(&fmin, 3, DTRACEAGG_MIN, 8, 0, false, (uint64_t)INT64_MAX);
	fixture(&fmax, 4, DTRACEAGG_MAX, 8, 0, false, (uint64_t)INT64_MIN);
	fixture(&favg, 5, DTRACEAGG_AVG, 16, 0, false, 0);

	int64_t vals[] = {5, -7, 0, 100, -100, INT64_MIN + 1, 3};
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		CHECK_EQ(fire(&fc, 0, 1, 42, (uint64_t)vals[i], 0), 0);
		CHECK_EQ(fire(&fs, 0, 2, 42, (uint64_t)vals[i], 0), 0);
		CHECK_EQ(fire(&fmin, 0, 3, 42, (uint64_t)vals[i], 0), 0);
		CHECK_EQ(fire(&fmax, 0, 4, 42, (uint64_t)vals[i], 0), 0);
		CHECK_EQ(fire(&favg, 0, 5, 42, (uint64_t)vals[i], 0), 0);
	}
	/* a second key of the count */
	fire(&fc, 0, 1, -1, 0, 0);

	len = aggsnap(0, NULL);
	/* 6 entries: 5 of 32 bytes, the avg of 40 -- packed back to back */
	CHECK_EQ(len, 5 * 32 + 40);
	CHECK((v = find(len, 32, 1, 42, NULL)) != NULL);
	if (v != NULL)
		CHECK_EQ(v[0], 7);
	/* entries are in insertion order: count, sum, min, max, avg, count */
	uint64_t sum = 0, w;
	int32_t k;
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		sum += (uint64_t)vals[i];
	memcpy(&k, snap + 168 + 16, 4);
	CHECK_EQ(k, -1);
	memcpy(&w, snap + 168 + 24, 8);
	CHECK_EQ(w, 1);
	memcpy(&w, snap + 32 + 24, 8);
	CHECK_EQ(w, (uint64_t)sum);
	memcpy(&w, snap + 64 + 24, 8);
	CHECK_EQ(w, (uint64_t)(INT64_MIN + 1));
	memcpy(&w, snap + 96 + 24, 8);
	CHECK_EQ(w, 100);
	memcpy(&w, snap + 128 + 24, 8);
	CHECK_EQ(w, 7);
	memcpy(&w, snap + 128 + 32, 8);
	CHECK_EQ(w, (uint64_t)sum);
	/* the key bytes: aggid, zeroed gap, varid, key, zeroed gap */
	uint32_t id;
	memcpy(&id, snap + 64, 4);
	CHECK_EQ(id, 3);
	memcpy(&id, snap + 64 + 4, 4);
	CHECK_EQ(id, 0);
	memcpy(&id, snap + 64 + 20, 4);
	CHECK_EQ(id, 0);

	/* a snapshot swapped in an empty buffer: the consumer accumulates */
	CHECK_EQ(aggsnap(0, NULL), 0);
	fire(&fc, 0, 1, 42, 0, 0);
	len = aggsnap(0, NULL);
	CHECK_EQ(len, 32);
	CHECK((v = find(len, 32, 1, 42, NULL)) != NULL);
	if (v != NULL)
		CHECK_EQ(v[0], 1);
	dtrace_state_buffers_free(&state);
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

static void
test_stddev_128bit_sum_of_squares(void)
{
	uint64_t v[4] = {0, 0, 0, 0};

	dtrace_aggregate_stddev(v, 3, 1);
	dtrace_aggregate_stddev(v, (uint64_t)-4, 1);
	CHECK_EQ(v[0], 2);
	CHECK_EQ(v[1], (uint64_t)-1);
	CHECK_EQ(v[2], 25);
	CHECK_EQ(v[3], 0);

	/* (2^32)^2 = 2^64: carries into the high word */
	memset(v, 0, sizeof(v));
	dtrace_aggregate_stddev(v, (uint64_t)1 << 32, 1);
	CHECK_EQ(v[2], 0);
	CHECK_EQ(v[3], 1);
	/* INT64_MIN: |x| = 2^63, squared 2^126 */
	memset(v, 0, sizeof(v));
	dtrace_aggregate_stddev(v, (uint64_t)INT64_MIN, 1);
	CHECK_EQ(v[2], 0);
	CHECK_EQ(v[3], (uint64_t)1 << 62);
	/* INT64_MAX squared = 2^126 - 2^64 + 1, then + 1 carries the low word */
	memset(v, 0, sizeof(v));
	dtrace_aggregate_stddev(v, (uint64_t)INT64_MAX, 1);
	CHECK_EQ(v[2], 1);
	CHECK_EQ(v[3], ((uint64_t)1 << 62) - 1);
	v[2] = UINT64_MAX;
	dtrace_aggregate_stddev(v, 1, 1);
	CHECK_EQ(v[2], 0);
	CHECK_EQ(v[3], (uint64_t)1 << 62);
	/* (2^32 - 1)^2 = 2^64 - 2^33 + 1 */
	memset(v, 0, sizeof(v));
	dtrace_aggregate_stddev(v, 0xffffffffu, 1);
	CHECK_EQ(v[2], 0xfffffffe00000001u);
	CHECK_EQ(v[3], 0);
	/* 0x1234567890abcdef^2, computed with arbitrary precision */
	memset(v, 0, sizeof(v));
	dtrace_aggregate_stddev(v, 0x1234567890abcdefu, 1);
	CHECK_EQ(v[2], 0xa6475f09a2f2a521u);
	CHECK_EQ(v[3], 0x014b66dc328828bcu);
}

/* The bucket DTrace's rule gives, by scanning the bucket values. */
static int
quantize_reference(int64_t val)
{
	if (val < 0) {
		for (int i = 0; i < DTRACE_QUANTIZE_ZEROBUCKET; i++)
			if (val <= DTRACE_QUANTIZE_BUCKETVAL(i))
				return i;
		return -1;
	}
	for (int i = DTRACE_QUANTIZE_ZEROBUCKET + 1; i < DTRACE_QUANTIZE_NBUCKETS; i++)
		if (val < DTRACE_QUANTIZE_BUCKETVAL(i))
			return i - 1;
	return DTRACE_QUANTIZE_NBUCKETS - 1;
}

static int
quantize_bucket(int64_t val)
{
	uint64_t q[DTRACE_QUANTIZE_NBUCKETS];
	int found = -1;

	memset(q, 0, sizeof(q));
	dtrace_aggregate_quantize(q, (uint64_t)val, 1);
	for (int i = 0; i < DTRACE_QUANTIZE_NBUCKETS; i++) {
		if (q[i] != 0) {
			if (found != -1 || q[i] != 1)
				return -2;
			found = i;
		}
	}
	return found;
}

static void
test_quantize_buckets(void)
{
	const int Z = DTRACE_QUANTIZE_ZEROBUCKET;

	CHECK_EQ(quantize_bucket(0), Z);
	CHECK_EQ(quantize_bucket(1), Z + 1);
	CHECK_EQ(quantize_bucket(2), Z + 2);
	CHECK_EQ(quantize_bucket(3), Z + 2);
	CHECK_EQ(quantize_bucket(4), Z + 3);
	CHECK_EQ(quantize_bucket(-1), Z - 1);
	CHECK_EQ(quantize_bucket(-2), Z - 2);
	CHECK_EQ(quantize_bucket(-3), Z - 2);
	CHECK_EQ(quantize_bucket(INT64_MAX), DTRACE_QUANTIZE_NBUCKETS - 1);
	CHECK_EQ(quantize_bucket(INT64_MIN), 0);
	CHECK_EQ(quantize_bucket(-((int64_t)1 << 62)), 0);
	CHECK_EQ(quantize_bucket(-((int64_t)1 << 62) + 1), 1);
	CHECK_EQ(quantize_bucket((int64_t)1 << 62), DTRACE_QUANTIZE_NBUCKETS - 1);
	CHECK_EQ(quantize_bucket(((int64_t)1 << 62) - 1), DTRACE_QUANTIZE_NBUCKETS - 2);

	/* every power of two and its neighbours, both signs, against DTrace's rule */
	for (int k = 0; k < 63; k++) {
		int64_t p = (int64_t)1 << k;
		int64_t probes[] = {p - 1, p, p + 1, -p + 1, -p, -p - 1};

		for (size_t i = 0; i < 6; i++)
			CHECK_EQ(quantize_bucket(probes[i]), quantize_reference(probes[i]));
	}
	/* the increment */
	uint64_t q[DTRACE_QUANTIZE_NBUCKETS] = {0};
	dtrace_aggregate_quantize(q, 5, 10);
	dtrace_aggregate_quantize(q, 7, (uint64_t)-3);
	CHECK_EQ(q[Z + 3], 7);
}

static void
test_quantize_through_aggregate_with_increment(void)
{
	agg_fixture_t f;
	const uint64_t *v;
	uint64_t len;
	const uint32_t vs = DTRACE_QUANTIZE_NBUCKETS * 8;

	testport_reset(false);
	state_init(8192);
	fixture(&f, 1, DTRACEAGG_QUANTIZE, vs, 0, true, 0);
	fire(&f, 0, 9, 1, 1000, 5);
	fire(&f, 0, 9, 1, 1023, 2);
	fire(&f, 0, 9, 1, (uint64_t)-1, 1);
	/* without the increment argument the increment is 1, whatever arg says */
	agg_fixture_t g;
	fixture(&g, 2, DTRACEAGG_QUANTIZE, vs, 0, false, 0);
	fire(&g, 0, 10, 1, 0, 77);
	len = aggsnap(0, NULL);
	CHECK_EQ(len, 2 * (24 + vs));
	CHECK((v = find(len, 24 + vs, 9, 1, NULL)) != NULL);
	if (v != NULL) {
		CHECK_EQ(v[DTRACE_QUANTIZE_ZEROBUCKET + 10], 7); /* [512, 1024) */
		CHECK_EQ(v[DTRACE_QUANTIZE_ZEROBUCKET - 1], 1);
	}
	CHECK((v = find(len, 24 + vs, 10, 1, NULL)) != NULL);
	if (v != NULL)
		CHECK_EQ(v[DTRACE_QUANTIZE_ZEROBUCKET], 1);
	dtrace_state_buffers_free(&state);
}

static void
test_lquantize_underflow_overflow(void)
{
	/* lquantize(x, -10, 20, 5): base -10, 6 levels of 5 */
	uint64_t arg = DTRACE_LQUANTIZE_ARG(5, 6, -10);
	uint64_t v[1 + 6 + 2];
	agg_fixture_t f;

	memset(v, 0, sizeof(v));
	v[0] = arg;
	int64_t vals[] = {-11, -10, -6, -5, 0, 19, 20, 21, INT32_MAX, INT32_MIN, INT64_MIN};
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		dtrace_aggregate_lquantize(v, (uint64_t)vals[i], 1);
	CHECK_EQ(v[0], arg);   /* the argument word stays */
	CHECK_EQ(v[1], 2);     /* underflow: -11, INT32_MIN */
	CHECK_EQ(v[2], 2);     /* [-10, -5) */
	CHECK_EQ(v[3], 1);     /* [-5, 0) */
	CHECK_EQ(v[4], 2);     /* [0, 5): 0, and INT64_MIN (low 32 bits 0) */
	CHECK_EQ(v[7], 1);     /* [15, 20): 19 */
	CHECK_EQ(v[8], 3);     /* overflow: 20, 21, INT32_MAX */

	/* DTrace lquantizes the low 32 bits: 2^32 + 3 counts as 3 */
	memset(v, 0, sizeof(v));
	v[0] = arg;
	dtrace_aggregate_lquantize(v, ((uint64_t)1 << 32) + 3, 1);
	CHECK_EQ(v[4], 1);

	/* through dtrace_aggregate: the value record starts with the argument */
	testport_reset(false);
	state_init(8192);
	fixture(&f, 1, DTRACEAGG_LQUANTIZE, (6 + 3) * 8, arg, false, arg);
	fire(&f, 0, 1, 0, (uint64_t)-100, 0);
	fire(&f, 0, 1, 0, 7, 0);
	fire(&f, 0, 1, 0, 1000, 0);
	uint64_t len = aggsnap(0, NULL);
	const uint64_t *r = find(len, 24 + 72, 1, 0, NULL);
	CHECK(r != NULL);
	if (r != NULL) {
		CHECK_EQ(r[0], arg);
		CHECK_EQ(r[1], 1);
		CHECK_EQ(r[1 + 1 + 3], 1); /* 7 is level 3: [5, 10) */
		CHECK_EQ(r[1 + 7], 1);
	}
	dtrace_state_buffers_free(&state);
}

static void
test_llquantize_magnitudes(void)
{
	/* llquantize(x, 10, 0, 2, 10): 0 | 1..9 | 10..99 by 10 | 100..999 by 100 | >= 1000 */
	uint64_t arg = DTRACE_LLQUANTIZE_ARG(10, 0, 2, 10);
	struct {
		int64_t val;
		int bucket;
	} cases[] = {{-5, 0}, {0, 0}, {1, 1}, {9, 9}, {10, 10}, {19, 10}, {20, 11}, {99, 18},
		     {100, 19}, {199, 19}, {999, 27}, {1000, 28}, {INT64_MAX, 28}};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_EQ(dtrace_aggregate_llquantize_bucket(10, 0, 2, 10, cases[i].val),
			 cases[i].bucket);

	/* factor 2, low 1, high 4, nsteps 4: below 2 | [2,4) by 1 | [4,8) by 2 |
	 * [8,16) by 4 | [16,32) by 8 | >= 32: each magnitude's 4 steps span
	 * [0, 2^(k+1)), so only the upper 2 are new */
	struct {
		int64_t val;
		int bucket;
	} c2[] = {{1, 0},  {2, 1},  {3, 2},  {4, 3},	{5, 3},	 {6, 4},  {7, 4},    {8, 5}, {11, 5},
		  {12, 6}, {15, 6}, {16, 7}, {23, 7}, {24, 8}, {31, 8}, {32, 9}, {1000, 9}};
	for (size_t i = 0; i < sizeof(c2) / sizeof(c2[0]); i++)
		CHECK_EQ(dtrace_aggregate_llquantize_bucket(2, 1, 4, 4, c2[i].val), c2[i].bucket);

	/* a magnitude beyond 64 bits: INT64_MAX lands in the last representable
	 * magnitude's top bucket, as do all its values (DTrace's clamp) */
	/* (magnitude k of factor 10 starts at bucket 1 + 9k; 10^19 > INT64_MAX,
	 * so [10^17, 10^18) is the last: all of it goes to bucket 1 + 9*17 + 8) */
	int top = dtrace_aggregate_llquantize_bucket(10, 0, 30, 10, INT64_MAX);
	CHECK_EQ(top, 1 + 9 * 17 + 8);
	CHECK_EQ(dtrace_aggregate_llquantize_bucket(10, 0, 30, 10, 2000000000000000000), top);
	CHECK_EQ(dtrace_aggregate_llquantize_bucket(10, 0, 30, 10, 100000000000000000), top);
	CHECK_EQ(dtrace_aggregate_llquantize_bucket(10, 0, 30, 10, 99999999999999999),
		 1 + 9 * 16 + 8);

	uint64_t v[2 + 28];
	memset(v, 0, sizeof(v));
	v[0] = arg;
	dtrace_aggregate_llquantize(v, 55, 3);
	dtrace_aggregate_llquantize(v, 5000, 1);
	CHECK_EQ(v[1 + 14], 3); /* 55: 10 + (55 - 10) / 10 */
	CHECK_EQ(v[1 + 28], 1);
	CHECK_EQ(v[0], arg);
}

static void
test_aggdesc_records(void)
{
	agg_fixture_t f;
	union {
		dtrace_aggdesc_t d;
		char room[sizeof(dtrace_aggdesc_t) + 4 * sizeof(dtrace_recdesc_t)];
	} u;

	fixture(&f, 3, DTRACEAGG_QUANTIZE, DTRACE_QUANTIZE_NBUCKETS * 8, 0, true, 0);
	memset(&u, 0, sizeof(u));
	u.d.dtagd_id = 3;
	u.d.dtagd_nrecs = 4;
	dtrace_aggregation_desc(&f.agg, &u.d);
	CHECK_EQ(u.d.dtagd_id, 3);
	CHECK_EQ(u.d.dtagd_epid, 13);
	CHECK_EQ(u.d.dtagd_size, 24 + DTRACE_QUANTIZE_NBUCKETS * 8);
	/* varid, key, value: the zero-sized increment is left out */
	CHECK_EQ(u.d.dtagd_nrecs, 3);
	CHECK_EQ(u.d.dtagd_rec[0].dtrd_offset, 8);
	CHECK_EQ(u.d.dtagd_rec[0].dtrd_size, 8);
	CHECK_EQ(u.d.dtagd_rec[1].dtrd_offset, 16);
	CHECK_EQ(u.d.dtagd_rec[1].dtrd_size, 4);
	CHECK_EQ(u.d.dtagd_rec[2].dtrd_offset, 24);
	CHECK_EQ(u.d.dtagd_rec[2].dtrd_action, DTRACEAGG_QUANTIZE);
	CHECK_EQ(u.d.dtagd_rec[2].dtrd_size, DTRACE_QUANTIZE_NBUCKETS * 8);
	/* the ECB's own records are untouched */
	CHECK_EQ(f.agg.dtag_action.dta_rec.dtrd_offset, 32);

	/* room for one: the count says how many there are */
	memset(&u, 0, sizeof(u));
	u.d.dtagd_nrecs = 1;
	dtrace_aggregation_desc(&f.agg, &u.d);
	CHECK_EQ(u.d.dtagd_nrecs, 3);
	CHECK_EQ(u.d.dtagd_rec[0].dtrd_offset, 8);
	CHECK_EQ(u.d.dtagd_rec[1].dtrd_size, 0);
}

int
main(void)
{
	test_count_sum_min_max_avg();
	test_stddev_128bit_sum_of_squares();
	test_quantize_buckets();
	test_quantize_through_aggregate_with_increment();
	test_lquantize_underflow_overflow();
	test_llquantize_magnitudes();
	test_aggdesc_records();
	return TEST_DONE();
}
