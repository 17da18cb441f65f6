/*
 * Aggregation keys: per-CPU entries, string keys compared up to their NUL
 * and stored zero-padded, many keys sharing hash chains, exhaustion of the
 * aggregation buffer with exact drop counts, entries shared across
 * aggregation ids, and the illegal-operation fault on a function mismatch.
 */
#include "dtrace_impl.h"
#include "test_util.h"
#include "testport.h"

static dtrace_state_t state;

/* @[varid, <int or string key>] = count()/sum(): see test_agg_functions.c */
typedef struct fx {
	dtrace_action_t varid, key;
	dtrace_difo_t strdifo;
	dtrace_aggregation_t agg;
	dtrace_ecb_t ecb;
	uint32_t keysize; /* bytes of the second member */
	bool isstr;
} fx_t;

static void
fx_init(fx_t *f, dtrace_aggid_t id, dtrace_actkind_t kind, bool isstr, uint32_t keysize)
{
	uint32_t valoff;

	memset(f, 0, sizeof(*f));
	f->isstr = isstr;
	f->keysize = keysize;
	f->varid.dta_kind = DTRACEACT_DIFEXPR;
	f->varid.dta_intuple = 1;
	f->varid.dta_rec = (dtrace_recdesc_t){.dtrd_size = 8, .dtrd_offset = 16, .dtrd_alignment = 8};
	f->key.dta_kind = DTRACEACT_DIFEXPR;
	f->key.dta_intuple = 1;
	f->key.dta_rec = (dtrace_recdesc_t){.dtrd_size = keysize, .dtrd_offset = 24,
					    .dtrd_alignment = isstr ? 8 : 4};
	if (isstr) {
		f->strdifo.dtdo_rtype.dtdt_kind = DIF_TYPE_STRING;
		f->strdifo.dtdo_rtype.dtdt_flags = DIF_TF_BYREF;
		f->key.dta_difo = &f->strdifo;
	}
	valoff = (24 + keysize + 7) & ~7u;
	f->varid.dta_next = &f->key;
	f->key.dta_prev = &f->varid;
	f->key.dta_next = &f->agg.dtag_action;
	f->agg.dtag_action.dta_prev = &f->key;
	f->agg.dtag_action.dta_kind = kind;
	f->agg.dtag_action.dta_rec =
		(dtrace_recdesc_t){.dtrd_action = kind, .dtrd_size = 8, .dtrd_offset = valoff,
				   .dtrd_alignment = 8};
	f->agg.dtag_id = id;
	f->agg.dtag_first = &f->varid;
	f->agg.dtag_base = 8;
	f->agg.dtag_ecb = &f->ecb;
	f->ecb.dte_needed = valoff + 8;
}

/* entry bytes: key (valoff - 8) + 8 */
static uint32_t
fx_entsize(const fx_t *f)
{
	return f->agg.dtag_action.dta_rec.dtrd_offset - 8 + 8;
}

static void
state_init(uint32_t ncpus, int64_t aggsize)
{
	testport_reset(false);
	testport_set_ncpus(ncpus);
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

/* Record the tuple (garbage elsewhere) and aggregate on `cpu`. */
static uint32_t
fire(fx_t *f, dtrace_cpuid_t cpu, uint64_t varid, const void *key, size_t keylen, uint64_t val)
{
	dtrace_buffer_t *buf = &state.dts_buffer[cpu];
	intptr_t offs = dtrace_buffer_reserve(buf, f->ecb.dte_needed, 8, &state, NULL);
	char *rec;

	if (offs < 0)
		return 0xdead;
	rec = buf->dtb_tomax + offs;
	memset(rec, 0x5a ^ (int)(varid & 0xff) ^ (int)cpu, f->ecb.dte_needed);
	memcpy(rec + 16, &varid, 8);
	memcpy(rec + 24, key, keylen);
	return dtrace_aggregate(&f->agg, buf, offs, &state.dts_aggbuffer[cpu], val, 0);
}

static uint32_t
fire_int(fx_t *f, dtrace_cpuid_t cpu, uint64_t varid, int32_t key)
{
	return fire(f, cpu, varid, &key, sizeof(key), 1);
}

static char snap[1 << 17];

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

static uint64_t
u64_at(uint64_t o)
{
	uint64_t v;

	memcpy(&v, snap + o, 8);
	return v;
}

static int32_t
i32_at(uint64_t o)
{
	int32_t v;

	memcpy(&v, snap + o, 4);
	return v;
}

static void
test_entries_are_per_cpu(void)
{
	fx_t f;
	uint64_t len;

	state_init(3, 4096);
	fx_init(&f, 1, DTRACEAGG_COUNT, false, 4);
	for (dtrace_cpuid_t c = 0; c < 3; c++) {
		for (uint32_t n = 0; n <= c; n++)
			CHECK_EQ(fire_int(&f, c, 1, 100), 0);
		CHECK_EQ(fire_int(&f, c, 1, (int32_t)(200 + c)), 0);
	}
	for (dtrace_cpuid_t c = 0; c < 3; c++) {
		len = aggsnap(c, NULL);
		CHECK_EQ(len, 2 * 32);
		CHECK_EQ(i32_at(16), 100);
		CHECK_EQ(u64_at(24), c + 1);
		CHECK_EQ(i32_at(32 + 16), (int32_t)(200 + c));
		CHECK_EQ(u64_at(32 + 24), 1);
	}
	dtrace_state_buffers_free(&state);
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

static void
test_string_keys_compare_to_nul(void)
{
	fx_t f;
	uint64_t len;
	char k1[16], k2[16], k3[16];

	state_init(1, 4096);
	fx_init(&f, 1, DTRACEAGG_SUM, true, 16);
	/* "abc" followed by different garbage: one key */
	memset(k1, 'x', sizeof(k1));
	memcpy(k1, "abc", 4);
	memset(k2, 'y', sizeof(k2));
	memcpy(k2, "abc", 4);
	/* "abcd": another key */
	memset(k3, 0, sizeof(k3));
	memcpy(k3, "abcd", 5);
	CHECK_EQ(fire(&f, 0, 3, k1, 16, 10), 0);
	CHECK_EQ(fire(&f, 0, 3, k2, 16, 20), 0);
	CHECK_EQ(fire(&f, 0, 3, k3, 16, 5), 0);
	/* a string filling its whole record (no NUL) is a key too */
	char full[16];
	memset(full, 'z', sizeof(full));
	CHECK_EQ(fire(&f, 0, 3, full, 16, 1), 0);
	CHECK_EQ(fire(&f, 0, 3, full, 16, 1), 0);

	len = aggsnap(0, NULL);
	CHECK_EQ(fx_entsize(&f), 40);
	CHECK_EQ(len, 3 * 40);
	CHECK_EQ(memcmp(snap + 16, "abc\0\0\0\0\0\0\0\0\0\0\0\0\0", 16), 0);
	CHECK_EQ(u64_at(32), 30);
	CHECK_EQ(memcmp(snap + 40 + 16, "abcd\0\0\0\0\0\0\0\0\0\0\0\0", 16), 0);
	CHECK_EQ(u64_at(40 + 32), 5);
	CHECK_EQ(memcmp(snap + 80 + 16, full, 16), 0);
	CHECK_EQ(u64_at(80 + 32), 2);
	dtrace_state_buffers_free(&state);
}

static void
test_many_keys_share_chains(void)
{
	fx_t f;
	uint64_t len, drops;
	static uint8_t seen[1000];

	/* 64 KiB: 1024 buckets, room for (65536 - 4096) / (32 + 24) = 1097 keys */
	state_init(1, 65536);
	fx_init(&f, 1, DTRACEAGG_COUNT, false, 4);
	for (int round = 0; round < 3; round++)
		for (int32_t k = 0; k < 1000; k++)
			CHECK_EQ(fire_int(&f, 0, 1, k * 7919), 0);
	len = aggsnap(0, &drops);
	CHECK_EQ(drops, 0);
	CHECK_EQ(len, 1000 * 32);
	memset(seen, 0, sizeof(seen));
	for (uint64_t o = 0; o + 32 <= len; o += 32) {
		int32_t k = i32_at(o + 16);
		CHECK_EQ(k % 7919, 0);
		if (k % 7919 == 0 && k / 7919 >= 0 && k / 7919 < 1000)
			seen[k / 7919]++;
		CHECK_EQ(u64_at(o + 24), 3);
	}
	for (int i = 0; i < 1000; i++)
		CHECK_EQ(seen[i], 1);
	dtrace_state_buffers_free(&state);
}

static void
test_full_buffer_drops_new_keys_only(void)
{
	fx_t f;
	uint64_t len, drops;

	/* 1 KiB: 16 buckets (64 bytes), 960 bytes for entries and index:
	 * 960 / (32 + 24) = 17 keys */
	state_init(2, 1024);
	fx_init(&f, 1, DTRACEAGG_COUNT, false, 4);
	for (int32_t k = 0; k < 20; k++)
		fire_int(&f, 1, 1, k);
	CHECK_EQ(state.dts_aggbuffer[1].dtb_drops, 3);
	/* existing keys still count; new ones keep dropping */
	for (int32_t k = 0; k < 20; k++)
		fire_int(&f, 1, 1, k);
	CHECK_EQ(state.dts_aggbuffer[1].dtb_drops, 6);
	CHECK_EQ(state.dts_aggbuffer[0].dtb_drops, 0);

	len = aggsnap(1, &drops);
	CHECK_EQ(drops, 6);
	CHECK_EQ(len, 17 * 32);
	for (int32_t k = 0; k < 17; k++) {
		CHECK_EQ(i32_at((uint64_t)k * 32 + 16), k);
		CHECK_EQ(u64_at((uint64_t)k * 32 + 24), 2);
	}
	/* the switch gave an empty buffer with a clean drop count */
	for (int32_t k = 19; k >= 0; k--)
		fire_int(&f, 1, 1, k);
	len = aggsnap(1, &drops);
	CHECK_EQ(drops, 3);
	CHECK_EQ(len, 17 * 32);
	CHECK_EQ(i32_at(16), 19);

	/* an aggregation buffer too small for any entry drops everything */
	dtrace_state_buffers_free(&state);
	state_init(1, 8);
	fire_int(&f, 0, 1, 1);
	fire_int(&f, 0, 1, 1);
	CHECK_EQ(state.dts_aggbuffer[0].dtb_drops, 2);
	dtrace_state_buffers_free(&state);

	/* no aggregation buffer on this CPU at all: a drop, no crash */
	dtrace_buffer_t none;
	memset(&none, 0, sizeof(none));
	state_init(1, 1024);
	intptr_t offs = dtrace_buffer_reserve(&state.dts_buffer[0], 40, 8, &state, NULL);
	CHECK_EQ(dtrace_aggregate(&f.agg, &state.dts_buffer[0], offs, &none, 1, 0), 0);
	CHECK_EQ(none.dtb_drops, 1);
	/* and no buffer given: nothing */
	CHECK_EQ(dtrace_aggregate(&f.agg, &state.dts_buffer[0], offs, NULL, 1, 0), 0);
	dtrace_state_buffers_free(&state);
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

static void
test_entries_shared_across_aggids(void)
{
	fx_t a, b, c;
	uint64_t len;

	state_init(1, 4096);
	/* two clauses feeding the same @var (same variable id 7): one entry,
	 * with the id of the aggregation that created it */
	fx_init(&a, 1, DTRACEAGG_COUNT, false, 4);
	fx_init(&b, 2, DTRACEAGG_COUNT, false, 4);
	CHECK_EQ(fire_int(&a, 0, 7, 5), 0);
	CHECK_EQ(fire_int(&b, 0, 7, 5), 0);
	CHECK_EQ(fire_int(&b, 0, 7, 5), 0);
	/* the same key under another function is errant DIF: ILLOP, untouched */
	fx_init(&c, 3, DTRACEAGG_SUM, false, 4);
	CHECK_EQ(fire_int(&c, 0, 7, 5), DTRACE_CPUF_ILLOP);
	len = aggsnap(0, NULL);
	CHECK_EQ(len, 32);
	CHECK_EQ(i32_at(0), 1);
	CHECK_EQ(u64_at(24), 3);
	dtrace_state_buffers_free(&state);
}

/* More members than dtrace_aggregate() gathers on its stack: the slow path. */
static void
test_wide_keys(void)
{
	enum { NM = 20 };
	static dtrace_action_t m[NM];
	static dtrace_aggregation_t agg;
	static dtrace_ecb_t ecb;
	dtrace_buffer_t *buf;
	uint64_t len;

	state_init(1, 8192);
	memset(m, 0, sizeof(m));
	memset(&agg, 0, sizeof(agg));
	for (int i = 0; i < NM; i++) {
		m[i].dta_kind = DTRACEACT_DIFEXPR;
		m[i].dta_intuple = 1;
		m[i].dta_rec = (dtrace_recdesc_t){.dtrd_size = 4,
						  .dtrd_offset = (uint32_t)(12 + 4 * i),
						  .dtrd_alignment = 4};
		m[i].dta_next = i + 1 < NM ? &m[i + 1] : &agg.dtag_action;
	}
	/* key: base 8, aggid 8..12, members 12..92; value at 96 */
	agg.dtag_action.dta_kind = DTRACEAGG_SUM;
	agg.dtag_action.dta_rec =
		(dtrace_recdesc_t){.dtrd_size = 8, .dtrd_offset = 96, .dtrd_alignment = 8};
	agg.dtag_id = 4;
	agg.dtag_first = &m[0];
	agg.dtag_base = 8;
	agg.dtag_ecb = &ecb;
	buf = &state.dts_buffer[0];
	for (int round = 0; round < 3; round++) {
		for (int32_t last = 0; last < 3; last++) {
			intptr_t offs = dtrace_buffer_reserve(buf, 104, 8, &state, NULL);
			char *rec = buf->dtb_tomax + offs;

			memset(rec, round, 104);
			for (int32_t i = 0; i < NM; i++) {
				int32_t v = i == NM - 1 ? last : i * 3;
				memcpy(rec + 12 + 4 * i, &v, 4);
			}
			CHECK_EQ(dtrace_aggregate(&agg, buf, offs, &state.dts_aggbuffer[0],
						  (uint64_t)(last + 1), 0),
				 0);
		}
	}
	len = aggsnap(0, NULL);
	CHECK_EQ(len, 3 * 96);
	for (int e = 0; e < 3; e++) {
		CHECK_EQ(i32_at((uint64_t)e * 96), 4);
		CHECK_EQ(i32_at((uint64_t)e * 96 + 4 + 4 * 18), 18 * 3);
		CHECK_EQ(i32_at((uint64_t)e * 96 + 4 + 4 * 19), e);
		CHECK_EQ(u64_at((uint64_t)e * 96 + 88), 3 * (uint64_t)(e + 1));
	}
	dtrace_state_buffers_free(&state);
}

int
main(void)
{
	test_entries_are_per_cpu();
	test_string_keys_compare_to_nul();
	test_many_keys_share_chains();
	test_full_buffer_drops_new_keys_only();
	test_entries_shared_across_aggids();
	test_wide_keys();
	return TEST_DONE();
}
