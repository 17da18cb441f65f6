/*
 * Probe context -- in the consumer's own process as much as in a traced one
 * -- writes records through buffer headers and speculation arrays that live
 * in memory traced processes can write.  Whatever a header says when a
 * probe fires, the record goes into the buffer the core allocated or
 * nowhere (a drop), never to an address the header names:
 *   - a principal header whose active half is not the buffer's, whose
 *     offset is past the end or off the 4-byte grid, or whose size is
 *     forged: the firing is a drop and nothing outside is written;
 *   - an aggregation header the same, and one whose key index does not hold
 *     together (bucket array outside the buffer, key count not matching
 *     the free space) or whose key entry points above the data: a drop;
 *   - speculate() writes into the speculation's buffer as GO allocated it,
 *     whatever the shared dtsp_buffer pointer says, and commit() copies it
 *     from there; a state word that is no state makes speculate() drop.
 * Each time, the next snapshot repairs the header and the buffer works.
 */
#include "core_harness.h"

#define BUFSIZE 4096
#define SPECSIZE 1024

enum { P_FIRE, P_AGG, P_START, P_COMMIT };

static dtrace_id_t ids[4];

/* Where a forged header points: it must stay as it is. */
static _Alignas(64) char decoy[2 * BUFSIZE];

static void
decoy_fill(void)
{
	memset(decoy, 0xa5, sizeof(decoy));
}

static bool
decoy_intact(void)
{
	for (size_t i = 0; i < sizeof(decoy); i++)
		if ((unsigned char)decoy[i] != 0xa5)
			return false;
	return true;
}

static void
fire_on(uint32_t cpu, int which, uint64_t arg0)
{
	testport_set_cpu(cpu);
	dtrace_probe(ids[which], arg0, 0, 0, 0, 0);
	testport_set_cpu(0);
}



/* One firing recorded and snapshotted whole. */
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
test_principal_header_forged(void)
{
	dtrace_state_t *st = harness_start_trace_and_count(BUFSIZE, DTRACEOPT_BUFPOLICY_SWITCH);
	dtrace_buffer_t *buf = &st->dts_buffer[1];
	uint64_t drops;

	/* the active half somewhere else: nothing is written there */
	decoy_fill();
	drops = buf->dtb_drops;
	buf->dtb_tomax = decoy;
	buf->dtb_offset = 0;
	fire_on(1, P_FIRE, 1);
	CHECK(decoy_intact());
	CHECK_EQ(buf->dtb_drops, drops + 1);
	CHECK_EQ(harness_snap_rc(st, 1, false, NULL), DTRACE_EBADMSG);
	check_buffer_works(st, 1, 2);

	/* a forged size makes no room past the buffer's end */
	buf->dtb_size = (uint64_t)1 << 40;
	buf->dtb_offset = BUFSIZE - 8;
	drops = buf->dtb_drops;
	fire_on(1, P_FIRE, 3);
	CHECK_EQ(buf->dtb_drops, drops + 1);
	CHECK_EQ(buf->dtb_offset, BUFSIZE - 8); /* nothing reserved */

	/* an offset past the end, or off the grid */
	buf->dtb_offset = BUFSIZE + 64;
	fire_on(1, P_FIRE, 4);
	CHECK_EQ(buf->dtb_offset, BUFSIZE + 64);
	buf->dtb_offset = 22;
	fire_on(1, P_FIRE, 5);
	CHECK_EQ(buf->dtb_offset, 22);
	CHECK_EQ(buf->dtb_drops, drops + 3);
	CHECK_EQ(harness_snap_rc(st, 1, false, NULL), DTRACE_EBADMSG);
	check_buffer_works(st, 1, 6);

	/* the other CPU never noticed */
	check_buffer_works(st, 0, 7);
	dtrace_state_close(st);
}

/* The layout of an index entry (core/buffers/aggregation.c). */
typedef struct {
	uint64_t data;
	uint32_t next, hashval, size, action;
} aggkey_t;

static void
test_aggregation_header_forged(void)
{
	dtrace_state_t *st = harness_start_trace_and_count(BUFSIZE, DTRACEOPT_BUFPOLICY_SWITCH);
	dtrace_buffer_t *agg = &st->dts_aggbuffer[0];
	dtrace_buffer_t saved;
	aggkey_t *key;
	uint64_t drops, n;

	fire_on(0, P_AGG, 5); /* one key */
	CHECK_EQ(agg->dtb_agg_nkeys, 1);
	saved = *agg;

	/* the active half elsewhere */
	decoy_fill();
	drops = agg->dtb_drops;
	agg->dtb_tomax = decoy;
	fire_on(0, P_AGG, 6);
	CHECK(decoy_intact());
	CHECK_EQ(agg->dtb_drops, drops + 1);
	*agg = saved;

	/* a bucket array beyond the buffer, a key count the free space does
	 * not match, a free pointer above the bucket array, buckets past the
	 * end: each a drop */
	agg->dtb_agg_hash = (uint64_t)1 << 30;
	fire_on(0, P_AGG, 6);
	CHECK_EQ(agg->dtb_drops, drops + 1);
	*agg = saved;
	agg->dtb_agg_nkeys = 1000;
	fire_on(0, P_AGG, 6);
	CHECK_EQ(agg->dtb_drops, drops + 1);
	*agg = saved;
	agg->dtb_agg_free = agg->dtb_agg_hash + 64;
	fire_on(0, P_AGG, 6);
	CHECK_EQ(agg->dtb_drops, drops + 1);
	*agg = saved;
	agg->dtb_agg_hashmask = 0xffffff;
	fire_on(0, P_AGG, 6);
	CHECK_EQ(agg->dtb_drops, drops + 1);
	*agg = saved;

	/* the key entry's data far outside: the existing key is not updated
	 * through it */
	key = (aggkey_t *)(void *)(agg->dtb_tomax + agg->dtb_agg_hash) - 1;
	CHECK_EQ(key->size, 24);
	key->data = (uint64_t)1 << 40;
	fire_on(0, P_AGG, 5);
	CHECK_EQ(agg->dtb_drops, drops + 1);
	key->data = saved.dtb_offset + 8; /* above the data */
	fire_on(0, P_AGG, 5);
	CHECK_EQ(agg->dtb_drops, drops + 2);
	key->data = 0;

	/* intact again: counting goes on where it was */
	fire_on(0, P_AGG, 5);
	CHECK_EQ(agg->dtb_drops, drops + 2);
	CHECK_EQ(harness_snap_rc(st, 0, true, &n), 0);
	CHECK_EQ(n, 32); /* the key (id, the 1 recorded first, arg0) and the count */
	CHECK_EQ(rd64(harness_data + 16), 5);
	CHECK_EQ(rd64(harness_data + 24), 2);
	dtrace_state_close(st);
}

static void
test_speculation_forged(void)
{
	dtrace_state_t *st = harness_start_speculating(BUFSIZE, SPECSIZE, 0);
	dtrace_speculation_t *spec = &st->dts_speculations[0];
	dtrace_buffer_t *real = spec->dtsp_buffer, fake[TESTPORT_MAXCPUS];
	uint64_t n;

	/* the shared per-CPU array pointer made to name ours, whose headers
	 * point at the decoy */
	decoy_fill();
	memset(fake, 0, sizeof(fake));
	for (int c = 0; c < TESTPORT_MAXCPUS; c++) {
		fake[c].dtb_tomax = decoy;
		fake[c].dtb_size = sizeof(decoy);
		fake[c].dtb_flags = DTRACEBUF_NOSWITCH;
	}
	spec->dtsp_buffer = fake;
	fire_on(0, P_START, 0);
	CHECK_EQ(spec->dtsp_state, DTRACESPEC_ACTIVE);
	fire_on(0, P_FIRE, 42);
	CHECK(decoy_intact());
	CHECK_EQ(real[0].dtb_offset, 24); /* where GO put the speculation */
	fire_on(0, P_COMMIT, 0);
	CHECK(decoy_intact());
	CHECK_EQ(spec->dtsp_state, DTRACESPEC_INACTIVE);
	CHECK_EQ(harness_snap_rc(st, 0, false, &n), 0);
	/* start's record, then the committed one (commit records nothing) */
	CHECK_EQ(n, 48);
	CHECK_EQ(rd64(harness_data + 24 + 16), 42);
	spec->dtsp_buffer = real;

	/* a state word that is no state: speculate() finds nothing active */
	spec->dtsp_state = 77;
	fire_on(0, P_FIRE, 43);
	CHECK_EQ(real[0].dtb_offset, 0);
	spec->dtsp_state = DTRACESPEC_INACTIVE;

	/* a speculation header whose half is elsewhere: dropped, and commit
	 * copies nothing from there */
	fire_on(0, P_START, 0);
	real[0].dtb_tomax = decoy;
	fire_on(0, P_FIRE, 44);
	CHECK(decoy_intact());
	real[0].dtb_offset = 64;
	fire_on(0, P_COMMIT, 0);
	CHECK(decoy_intact());
	CHECK_EQ(harness_snap_rc(st, 0, false, &n), 0);
	CHECK_EQ(n, 24); /* the start record only */
	dtrace_state_close(st);
}

int
main(void)
{
	static const char *const names[] = {"fire", "agg", "start", "commit", NULL};
	dtrace_provider_id_t p = harness_setup(2, names, ids);

	test_principal_header_forged();
	test_aggregation_header_forged();
	test_speculation_forged();
	harness_teardown(p);
	return TEST_DONE();
}
