/*
 * Principal buffers: the switch, fill and ring policies of
 * dtrace_buffer_reserve() with their exact drop counts, alignment padding,
 * activation, switching and the BUFSNAP snapshot.
 */
#include "dtrace_impl.h"
#include "test_util.h"
#include "testport.h"

static dtrace_state_t state;
static dtrace_ecb_t ecbs[4];
static dtrace_ecb_t *ecbtab[4];

static void
state_init(int64_t bufsize, int64_t policy)
{
	memset(&state, 0, sizeof(state));
	for (int i = 0; i < DTRACEOPT_MAX; i++)
		state.dts_options[i] = DTRACEOPT_UNSET;
	state.dts_options[DTRACEOPT_BUFSIZE] = bufsize;
	state.dts_options[DTRACEOPT_BUFPOLICY] = policy;
	state.dts_options[DTRACEOPT_NSPEC] = 0;
	state.dts_activity = DTRACE_ACTIVITY_INACTIVE;
	/* EPIDs 1..4 with record sizes 24, 16, 8, 40 for the ring walk */
	uint32_t sizes[4] = {24, 16, 8, 40};
	for (int i = 0; i < 4; i++) {
		memset(&ecbs[i], 0, sizeof(ecbs[i]));
		ecbs[i].dte_epid = (dtrace_epid_t)(i + 1);
		ecbs[i].dte_size = sizes[i];
		ecbs[i].dte_needed = sizes[i];
		ecbtab[i] = &ecbs[i];
	}
	state.dts_ecbs = ecbtab;
	state.dts_necbs = 4;
}

/* Reserve and commit one record of `epid` (size from the ECB) carrying `seq`. */
static intptr_t
record(dtrace_buffer_t *buf, dtrace_epid_t epid, uint32_t align, uint32_t seq)
{
	uint32_t size = ecbs[epid - 1].dte_size;
	intptr_t offs = dtrace_buffer_reserve(buf, size, align, &state, NULL);

	if (offs < 0)
		return offs;
	memcpy(buf->dtb_tomax + offs, &epid, sizeof(epid));
	memcpy(buf->dtb_tomax + offs + 4, &seq, sizeof(seq));
	buf->dtb_offset = (uint64_t)offs + size;
	return offs;
}

static uint32_t
word_at(const char *base, uint64_t offs)
{
	uint32_t w;

	memcpy(&w, base + offs, sizeof(w));
	return w;
}

static void
test_switch_policy_drops_when_full(void)
{
	dtrace_buffer_t *buf;
	dtrace_mstate_t ms;

	testport_reset(false);
	testport_set_ncpus(2);
	state_init(64, DTRACEOPT_BUFPOLICY_SWITCH);
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	CHECK_EQ(state.dts_options[DTRACEOPT_BUFSIZE], 64);
	buf = &state.dts_buffer[1];
	CHECK(buf->dtb_tomax != NULL && buf->dtb_xamot != NULL);

	/* inactive until GO activates it: refused, and not a drop */
	CHECK_EQ(dtrace_buffer_reserve(buf, 16, 4, &state, NULL), -1);
	CHECK_EQ(buf->dtb_drops, 0);
	dtrace_buffer_activate(&state);
	CHECK(!(state.dts_buffer[0].dtb_flags & DTRACEBUF_INACTIVE));
	CHECK(!(buf->dtb_flags & DTRACEBUF_INACTIVE));

	for (uint32_t i = 0; i < 4; i++)
		CHECK_EQ(record(buf, 2, 4, i), 16 * i);
	CHECK_EQ(buf->dtb_offset, 64);
	/* full: every further record is one drop */
	for (int i = 0; i < 3; i++)
		CHECK_EQ(record(buf, 2, 4, 99), -1);
	CHECK_EQ(buf->dtb_drops, 3);
	/* the other CPU is untouched */
	CHECK_EQ(state.dts_buffer[0].dtb_drops, 0);
	CHECK_EQ(state.dts_buffer[0].dtb_offset, 0);

	/* scratch follows the reservation in the same half */
	dtrace_buffer_t *b0 = &state.dts_buffer[0];
	intptr_t off = dtrace_buffer_reserve(b0, 20, 4, &state, &ms);
	CHECK_EQ(off, 0);
	CHECK_EQ(ms.dtms_scratch_base, (uintptr_t)b0->dtb_tomax + 20);
	CHECK_EQ(ms.dtms_scratch_size, 44);
	CHECK_EQ(ms.dtms_scratch_ptr, ms.dtms_scratch_base);
	/* an uncommitted reservation costs nothing */
	CHECK_EQ(b0->dtb_offset, 0);

	/* a record bigger than the buffer is a drop too */
	CHECK_EQ(dtrace_buffer_reserve(b0, 65, 4, &state, NULL), -1);
	CHECK_EQ(b0->dtb_drops, 1);

	dtrace_state_buffers_free(&state);
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

static void
test_alignment_pads_with_epidnone(void)
{
	dtrace_buffer_t *buf;

	testport_reset(false);
	state_init(128, DTRACEOPT_BUFPOLICY_SWITCH);
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	dtrace_buffer_activate(&state);
	buf = &state.dts_buffer[0];
	memset(buf->dtb_tomax, 0xa5, 128);

	/* a 12-byte record at 0, then an 8-aligned one: one pad word at 12 */
	intptr_t off = dtrace_buffer_reserve(buf, 12, 4, &state, NULL);
	CHECK_EQ(off, 0);
	buf->dtb_offset = 12;
	off = dtrace_buffer_reserve(buf, 16, 8, &state, NULL);
	CHECK_EQ(off, 16);
	CHECK_EQ(word_at(buf->dtb_tomax, 12), DTRACE_EPIDNONE);
	buf->dtb_offset = 32;
	/* 4 words of padding to reach a 16-byte boundary from 36 */
	buf->dtb_offset = 36;
	off = dtrace_buffer_reserve(buf, 8, 16, &state, NULL);
	CHECK_EQ(off, 48);
	for (uint64_t o = 36; o < 48; o += 4)
		CHECK_EQ(word_at(buf->dtb_tomax, o), DTRACE_EPIDNONE);
	/* already aligned: no padding, and the byte before is untouched */
	buf->dtb_offset = 64;
	memset(buf->dtb_tomax + 60, 0xa5, 4);
	CHECK_EQ(dtrace_buffer_reserve(buf, 8, 8, &state, NULL), 64);
	CHECK_EQ(word_at(buf->dtb_tomax, 60), 0xa5a5a5a5u);
	/* padding that would itself overflow is a drop, and padding then
	 * doesn't count against a later, smaller alignment */
	buf->dtb_offset = 124;
	CHECK_EQ(dtrace_buffer_reserve(buf, 8, 8, &state, NULL), -1);
	CHECK_EQ(buf->dtb_drops, 1);
	CHECK_EQ(dtrace_buffer_reserve(buf, 4, 4, &state, NULL), 124);
	dtrace_state_buffers_free(&state);
}

static void
test_switch_snapshot_fills_bufdesc(void)
{
	static char out[256];
	dtrace_bufdesc_t desc;
	dtrace_buffer_t *buf;

	testport_reset(false);
	testport_set_ncpus(2);
	state_init(64, DTRACEOPT_BUFPOLICY_SWITCH);
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	dtrace_buffer_activate(&state);
	state.dts_activity = DTRACE_ACTIVITY_ACTIVE;
	buf = &state.dts_buffer[1];

	testport_set_time(1000);
	buf->dtb_switched = 1000; /* as if switched before */
	for (uint32_t i = 0; i < 5; i++)
		record(buf, 2, 4, 100 + i);
	buf->dtb_errors = 2;
	state.dts_errors = 5;

	testport_set_time(5000);
	memset(&desc, 0, sizeof(desc));
	desc.dtbd_cpu = 1;
	desc.dtbd_size = sizeof(out);
	desc.dtbd_data = out;
	uint64_t xcalls = testport_xcalls();
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), 0);
	CHECK_EQ(testport_xcalls(), xcalls + 1);
	CHECK_EQ(desc.dtbd_size, 64);
	CHECK_EQ(desc.dtbd_drops, 1);
	CHECK_EQ(desc.dtbd_errors, 2);
	CHECK_EQ(desc.dtbd_oldest, 0);
	CHECK_EQ(desc.dtbd_timestamp, 5000);
	CHECK_EQ(state.dts_errors, 7);
	for (uint32_t i = 0; i < 4; i++) {
		CHECK_EQ(word_at(out, 16 * i), 2);
		CHECK_EQ(word_at(out, 16 * i + 4), 100 + i);
	}
	CHECK_EQ(buf->dtb_interval, 4000);
	/* the new active half is empty and counts afresh */
	CHECK_EQ(buf->dtb_offset, 0);
	CHECK_EQ(buf->dtb_drops, 0);
	CHECK_EQ(buf->dtb_errors, 0);
	CHECK_EQ(record(buf, 3, 4, 7), 0);

	/* next snapshot: only the one new record */
	testport_set_time(9000);
	desc.dtbd_size = sizeof(out);
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), 0);
	CHECK_EQ(desc.dtbd_size, 8);
	CHECK_EQ(desc.dtbd_drops, 0);
	CHECK_EQ(desc.dtbd_timestamp, 9000);
	CHECK_EQ(word_at(out, 0), 3);
	CHECK_EQ(word_at(out, 4), 7);

	/* errors */
	desc.dtbd_size = 32; /* less than a whole buffer */
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), DTRACE_ENOSPC);
	desc.dtbd_size = sizeof(out);
	desc.dtbd_cpu = 2;
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), DTRACE_EINVAL);
	desc.dtbd_cpu = (uint32_t)DTRACE_CPUALL;
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), DTRACE_EINVAL);
	desc.dtbd_cpu = 0;
	CHECK_EQ(dtrace_buffer_snapshot(&state, NULL, &desc), DTRACE_ENOENT);
	dtrace_state_buffers_free(&state);
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

static void
test_fill_policy_stops_at_reserve(void)
{
	static char out[128];
	dtrace_bufdesc_t desc;
	dtrace_buffer_t *buf;
	dtrace_mstate_t ms;

	testport_reset(false);
	state_init(64, DTRACEOPT_BUFPOLICY_FILL);
	state.dts_reserve = 16; /* END/ERROR need 16 bytes */
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	dtrace_buffer_activate(&state);
	state.dts_activity = DTRACE_ACTIVITY_ACTIVE;
	buf = &state.dts_buffer[0];
	CHECK(buf->dtb_flags & DTRACEBUF_FILL);

	CHECK_EQ(record(buf, 2, 4, 0), 0);
	CHECK_EQ(record(buf, 2, 4, 1), 16);
	/* scratch is the other half */
	CHECK_EQ(dtrace_buffer_reserve(buf, 16, 4, &state, &ms), 32);
	CHECK_EQ(ms.dtms_scratch_base, (uintptr_t)buf->dtb_xamot);
	CHECK_EQ(ms.dtms_scratch_size, 64);
	CHECK_EQ(record(buf, 2, 4, 2), 32);
	/* 48 + 16 > 64 - 16: full; not a drop */
	CHECK_EQ(record(buf, 2, 4, 3), -1);
	CHECK(buf->dtb_flags & DTRACEBUF_FULL);
	CHECK_EQ(buf->dtb_drops, 0);
	/* full stays full even for a record that would fit */
	CHECK_EQ(record(buf, 3, 4, 4), -1);
	CHECK_EQ(buf->dtb_offset, 48);

	/* a snapshot before the state stops is refused */
	memset(&desc, 0, sizeof(desc));
	desc.dtbd_size = sizeof(out);
	desc.dtbd_data = out;
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), DTRACE_EBUSY);

	/* COOLDOWN: END may use the reserve (fw dropped dts_reserve to 0) */
	state.dts_activity = DTRACE_ACTIVITY_COOLDOWN;
	state.dts_reserve = 0;
	CHECK_EQ(record(buf, 2, 4, 5), 48);
	CHECK_EQ(record(buf, 3, 4, 6), -1);
	CHECK_EQ(buf->dtb_offset, 64);

	state.dts_activity = DTRACE_ACTIVITY_STOPPED;
	testport_set_time(777);
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), 0);
	CHECK_EQ(desc.dtbd_size, 64);
	CHECK_EQ(desc.dtbd_drops, 0);
	CHECK_EQ(desc.dtbd_oldest, 0);
	CHECK_EQ(desc.dtbd_timestamp, 777);
	CHECK_EQ(word_at(out, 48 + 4), 5);
	/* consumed: the next snapshot is empty */
	desc.dtbd_size = sizeof(out);
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), 0);
	CHECK_EQ(desc.dtbd_size, 0);
	dtrace_state_buffers_free(&state);
}

static void
test_fill_reserve_must_fit(void)
{
	testport_reset(false);
	state_init(64, DTRACEOPT_BUFPOLICY_FILL);
	state.dts_reserve = 100;
	CHECK_EQ(dtrace_state_buffers(&state), DTRACE_E2BIG);
	CHECK(state.dts_buffer == NULL);
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

/* Walk a ring snapshot the way a consumer does: from oldest, around. */
static int
ring_sequence(const char *data, uint64_t size, uint64_t oldest, uint32_t *seqs, int max)
{
	uint64_t offs = oldest;
	int n = 0;
	bool wrapped = false;

	while (n < max) {
		if (offs >= size) {
			if (wrapped)
				break;
			offs = 0;
			wrapped = true;
		}
		if (wrapped && offs >= oldest)
			break;
		uint32_t epid = word_at(data, offs);
		if (epid == DTRACE_EPIDNONE) {
			offs += 4;
			continue;
		}
		seqs[n++] = word_at(data, offs + 4);
		offs += ecbs[epid - 1].dte_size;
	}
	return n;
}

static void
test_ring_wraps_and_tracks_oldest(void)
{
	static char out[64];
	dtrace_bufdesc_t desc;
	dtrace_buffer_t *buf;
	uint32_t seqs[16];
	dtrace_mstate_t ms;

	testport_reset(false);
	state_init(64, DTRACEOPT_BUFPOLICY_RING);
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	dtrace_buffer_activate(&state);
	state.dts_activity = DTRACE_ACTIVITY_ACTIVE;
	buf = &state.dts_buffer[0];
	CHECK(buf->dtb_flags & DTRACEBUF_RING);

	/* 24-byte records (EPID 1): 0, 24, then the third wraps */
	CHECK_EQ(record(buf, 1, 4, 0), 0);
	CHECK_EQ(record(buf, 1, 4, 1), 24);
	CHECK(!(buf->dtb_flags & DTRACEBUF_WRAPPED));
	CHECK_EQ(dtrace_buffer_reserve(buf, 24, 4, &state, &ms), 0);
	CHECK_EQ(ms.dtms_scratch_base, (uintptr_t)buf->dtb_xamot);
	CHECK(buf->dtb_flags & DTRACEBUF_WRAPPED);
	/* record 0 is overwritten: the oldest is record 1 at 24 */
	CHECK_EQ(buf->dtb_xamot_offset, 24);
	/* the tail past the last record was cleared */
	CHECK_EQ(word_at(buf->dtb_tomax, 48), 0);
	CHECK_EQ(record(buf, 1, 4, 2), 0);
	CHECK_EQ(buf->dtb_xamot_offset, 24);
	/* record 3 overwrites record 1: the oldest moves to the padding at 48 */
	CHECK_EQ(record(buf, 1, 4, 3), 24);
	CHECK_EQ(buf->dtb_xamot_offset, 48);
	CHECK_EQ(buf->dtb_drops, 0);
	/* a smaller record fits at 48 */
	CHECK_EQ(record(buf, 2, 4, 4), 48);
	CHECK_EQ(buf->dtb_xamot_offset, 0);
	/* and the next wraps again, overwriting record 2 at 0 */
	CHECK_EQ(record(buf, 3, 4, 5), 0);
	CHECK_EQ(buf->dtb_xamot_offset, 24);
	/* a record larger than the whole buffer: a drop, nothing moves */
	CHECK_EQ(dtrace_buffer_reserve(buf, 72, 4, &state, NULL), -1);
	CHECK_EQ(buf->dtb_drops, 1);
	CHECK_EQ(buf->dtb_offset, 8);

	state.dts_activity = DTRACE_ACTIVITY_STOPPED;
	memset(&desc, 0, sizeof(desc));
	desc.dtbd_size = sizeof(out);
	desc.dtbd_data = out;
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), 0);
	CHECK_EQ(desc.dtbd_size, 64); /* wrapped: the whole buffer */
	CHECK_EQ(desc.dtbd_oldest, 24);
	CHECK_EQ(desc.dtbd_drops, 1);
	/* the gap 8..24 (half of overwritten record 2) reads as padding */
	for (uint64_t o = 8; o < 24; o += 4)
		CHECK_EQ(word_at(out, o), DTRACE_EPIDNONE);
	int n = ring_sequence(out, 64, desc.dtbd_oldest, seqs, 16);
	CHECK_EQ(n, 3);
	CHECK_EQ(seqs[0], 3);
	CHECK_EQ(seqs[1], 4);
	CHECK_EQ(seqs[2], 5);
	dtrace_state_buffers_free(&state);
}

static void
test_ring_unwrapped_snapshot(void)
{
	static char out[64];
	dtrace_bufdesc_t desc;
	dtrace_buffer_t *buf;

	testport_reset(false);
	state_init(64, DTRACEOPT_BUFPOLICY_RING);
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	dtrace_buffer_activate(&state);
	state.dts_activity = DTRACE_ACTIVITY_ACTIVE;
	buf = &state.dts_buffer[0];
	CHECK_EQ(record(buf, 2, 4, 1), 0);
	CHECK_EQ(record(buf, 3, 4, 2), 16);
	state.dts_activity = DTRACE_ACTIVITY_STOPPED;
	memset(&desc, 0, sizeof(desc));
	desc.dtbd_size = sizeof(out);
	desc.dtbd_data = out;
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), 0);
	CHECK_EQ(desc.dtbd_size, 24);
	CHECK_EQ(desc.dtbd_oldest, 0);
	dtrace_state_buffers_free(&state);
}

static void
test_ring_big_record_unwraps(void)
{
	dtrace_buffer_t *buf;

	/* A record that, with the one it overwrites, exceeds the buffer leaves
	 * nothing old: the ring behaves as if it had never wrapped. */
	testport_reset(false);
	state_init(64, DTRACEOPT_BUFPOLICY_RING);
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	dtrace_buffer_activate(&state);
	buf = &state.dts_buffer[0];
	CHECK_EQ(record(buf, 1, 4, 0), 0);  /* 0..24 */
	CHECK_EQ(record(buf, 4, 4, 1), 24); /* 24..64 */
	CHECK_EQ(record(buf, 4, 4, 2), 0);  /* 0..40 overwrites both */
	CHECK(!(buf->dtb_flags & DTRACEBUF_WRAPPED));
	CHECK_EQ(buf->dtb_xamot_offset, 0);
	CHECK_EQ(word_at(buf->dtb_tomax, 40), 0);
	CHECK_EQ(buf->dtb_offset, 40);
	dtrace_state_buffers_free(&state);
}

static void
test_resize_auto_halves_until_it_fits(void)
{
	testport_reset(false);
	testport_set_ncpus(2);
	state_init(1024, DTRACEOPT_BUFPOLICY_SWITCH);
	/* nspec 0: allocations are the ledger's geometries, the 2 arrays, then
	 * 4 halves of 1024 */
	uint64_t base = testport_alloc_count();
	testport_alloc_fail_nth(1 + 2 + 3); /* the third half fails */
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	CHECK_EQ(state.dts_options[DTRACEOPT_BUFSIZE], 512);
	CHECK_EQ(state.dts_buffer[0].dtb_size, 512);
	CHECK_EQ(state.dts_buffer[1].dtb_size, 512);
	CHECK_EQ(testport_alloc_count() - base, 1 + 2 + 2 + 4);
	dtrace_state_buffers_free(&state);
	CHECK_EQ(testport_alloc_outstanding(), 0);

	/* 4 CPUs, only 1 half of 8 obtained: shrink by 8 at once */
	testport_set_ncpus(4);
	state_init(1024, DTRACEOPT_BUFPOLICY_SWITCH);
	testport_alloc_fail_nth(2 + 2);
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	CHECK_EQ(state.dts_options[DTRACEOPT_BUFSIZE], 128);
	dtrace_state_buffers_free(&state);

	/* sizes are rounded down to 8 */
	state_init(1001, DTRACEOPT_BUFPOLICY_SWITCH);
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	CHECK_EQ(state.dts_options[DTRACEOPT_BUFSIZE], 1000);
	dtrace_state_buffers_free(&state);

	/* never any memory: ENOMEM once below 8 bytes, nothing left over */
	state_init(1024, DTRACEOPT_BUFPOLICY_SWITCH);
	testport_alloc_fail_from(3);
	CHECK_EQ(dtrace_state_buffers(&state), DTRACE_ENOMEM);
	testport_alloc_fail_from(0);
	CHECK(state.dts_buffer == NULL);
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

static void
test_resize_speculation_buffers(void)
{
	testport_reset(false);
	testport_set_ncpus(2);
	state_init(64, DTRACEOPT_BUFPOLICY_SWITCH);
	state.dts_options[DTRACEOPT_NSPEC] = 2;
	state.dts_options[DTRACEOPT_SPECSIZE] = 1024;
	/* 2 arrays, the speculations, their 2 arrays, 4 principal halves, then
	 * one half per CPU per speculation: the second fails.  DTrace counts
	 * two halves per CPU even without an inactive half: 4 wanted, 1 got,
	 * so the size drops by 4 */
	testport_alloc_fail_nth(2 + 1 + 2 + 4 + 2);
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	CHECK_EQ(state.dts_nspeculations, 2);
	CHECK_EQ(state.dts_options[DTRACEOPT_SPECSIZE], 256);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(state.dts_speculations[i].dtsp_buffer[1].dtb_size, 256);
		CHECK(state.dts_speculations[i].dtsp_buffer[1].dtb_xamot == NULL);
		CHECK(state.dts_speculations[i].dtsp_buffer[1].dtb_flags & DTRACEBUF_NOSWITCH);
	}
	dtrace_state_buffers_free(&state);
	CHECK(state.dts_speculations == NULL);
	CHECK_EQ(state.dts_nspeculations, 0);
	CHECK_EQ(testport_alloc_outstanding(), 0);

	/* the speculation array itself is never resized: ENOMEM */
	state_init(64, DTRACEOPT_BUFPOLICY_SWITCH);
	state.dts_options[DTRACEOPT_NSPEC] = 2;
	testport_alloc_fail_nth(3);
	CHECK_EQ(dtrace_state_buffers(&state), DTRACE_ENOMEM);
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

static void
test_resize_manual_fails(void)
{
	testport_reset(false);
	testport_set_ncpus(2);
	state_init(1024, DTRACEOPT_BUFPOLICY_SWITCH);
	state.dts_options[DTRACEOPT_BUFRESIZE] = DTRACEOPT_BUFRESIZE_MANUAL;
	testport_alloc_fail_nth(2 + 4); /* the last half */
	CHECK_EQ(dtrace_state_buffers(&state), DTRACE_ENOMEM);
	CHECK_EQ(state.dts_options[DTRACEOPT_BUFSIZE], 1024);
	CHECK(state.dts_buffer == NULL);
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

static void
test_cpu_option_allocates_one_cpu(void)
{
	testport_reset(false);
	testport_set_ncpus(3);
	state_init(64, DTRACEOPT_BUFPOLICY_SWITCH);
	state.dts_options[DTRACEOPT_CPU] = 2;
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	dtrace_buffer_activate(&state);
	CHECK(state.dts_buffer[0].dtb_tomax == NULL);
	CHECK(state.dts_buffer[2].dtb_tomax != NULL);
	/* a CPU without a buffer drops every record */
	CHECK_EQ(dtrace_buffer_reserve(&state.dts_buffer[0], 8, 4, &state, NULL), -1);
	CHECK_EQ(state.dts_buffer[0].dtb_drops, 1);
	CHECK_EQ(dtrace_buffer_reserve(&state.dts_buffer[2], 8, 4, &state, NULL), 0);
	dtrace_state_buffers_free(&state);

	state_init(64, DTRACEOPT_BUFPOLICY_SWITCH);
	state.dts_options[DTRACEOPT_CPU] = 3;
	CHECK_EQ(dtrace_state_buffers(&state), DTRACE_EINVAL);
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

/* DTrace's dtrace_nonroot_maxsize: 16 MB per CPU unless every privilege. */
static void
test_nonroot_buffer_limit_is_efbig(void)
{
	const int64_t limit = 16 * 1024 * 1024;

	testport_reset(false);
	testport_set_ncpus(1);
	/* at the limit: allowed */
	state_init(limit, DTRACEOPT_BUFPOLICY_SWITCH);
	state.dts_priv = DTRACE_PRIV_USER | DTRACE_PRIV_PROC;
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	CHECK_EQ(state.dts_buffer[0].dtb_size, (uint64_t)limit);
	dtrace_state_buffers_free(&state);
	/* beyond it: EFBIG, not shrunk as a memory shortage would be */
	state_init(limit + 8, DTRACEOPT_BUFPOLICY_SWITCH);
	state.dts_priv = DTRACE_PRIV_USER | DTRACE_PRIV_PROC | DTRACE_PRIV_KERNEL;
	CHECK_EQ(dtrace_state_buffers(&state), DTRACE_EFBIG);
	CHECK(state.dts_buffer == NULL);
	CHECK_EQ(testport_alloc_outstanding(), 0);
	/* the aggregation buffer has the same limit */
	state_init(64, DTRACEOPT_BUFPOLICY_SWITCH);
	state.dts_priv = DTRACE_PRIV_USER;
	state.dts_options[DTRACEOPT_AGGSIZE] = limit + 1024;
	CHECK_EQ(dtrace_state_buffers(&state), DTRACE_EFBIG);
	CHECK_EQ(testport_alloc_outstanding(), 0);
	/* a consumer with every privilege may go beyond */
	state_init(limit + 8, DTRACEOPT_BUFPOLICY_SWITCH);
	state.dts_priv = DTRACE_PRIV_ALL;
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	CHECK_EQ(state.dts_buffer[0].dtb_size, (uint64_t)limit + 8);
	dtrace_state_buffers_free(&state);
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

/*
 * As in DTrace, a consumer need not say how much room dtbd_data has: a
 * dtbd_size of 0 means room for a whole buffer.  A room it does state is
 * respected: too small for the data is ENOSPC, and nothing is consumed.
 */
static void
test_snapshot_room(void)
{
	static char out[256];
	dtrace_bufdesc_t desc;
	dtrace_buffer_t *buf;

	testport_reset(false);
	testport_set_ncpus(1);
	state_init(128, DTRACEOPT_BUFPOLICY_SWITCH);
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	dtrace_buffer_activate(&state);
	state.dts_activity = DTRACE_ACTIVITY_ACTIVE;
	buf = &state.dts_buffer[0];
	CHECK_EQ(record(buf, 3, 4, 1), 0);
	memset(&desc, 0, sizeof(desc));
	desc.dtbd_data = out;
	desc.dtbd_size = 0; /* a DTrace consumer's call */
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), 0);
	CHECK_EQ(desc.dtbd_size, 8);
	CHECK_EQ(word_at(out, 4), 1);
	/* stated room below the buffer's size: the switch could not fit */
	CHECK_EQ(record(buf, 3, 4, 2), 0);
	desc.dtbd_size = 64;
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), DTRACE_ENOSPC);
	CHECK_EQ(buf->dtb_offset, 8); /* not switched */
	desc.dtbd_size = 128;
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), 0);
	CHECK_EQ(desc.dtbd_size, 8);
	CHECK_EQ(word_at(out, 4), 2);
	dtrace_state_buffers_free(&state);

	/* a stopped ring: room for its data is enough */
	state_init(128, DTRACEOPT_BUFPOLICY_RING);
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	dtrace_buffer_activate(&state);
	state.dts_activity = DTRACE_ACTIVITY_ACTIVE;
	buf = &state.dts_buffer[0];
	CHECK_EQ(record(buf, 2, 4, 1), 0);
	CHECK_EQ(record(buf, 2, 4, 2), 16);
	state.dts_activity = DTRACE_ACTIVITY_STOPPED;
	desc.dtbd_size = 24; /* less than its 32 bytes of data */
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), DTRACE_ENOSPC);
	CHECK(!(buf->dtb_flags & DTRACEBUF_CONSUMED));
	desc.dtbd_size = 32; /* less than the buffer, but all of the data */
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), 0);
	CHECK_EQ(desc.dtbd_size, 32);
	CHECK_EQ(word_at(out, 20), 2);
	desc.dtbd_size = 0;
	CHECK_EQ(dtrace_buffer_snapshot(&state, state.dts_buffer, &desc), 0);
	CHECK_EQ(desc.dtbd_size, 0); /* consumed */
	dtrace_state_buffers_free(&state);
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

int
main(void)
{
	test_switch_policy_drops_when_full();
	test_alignment_pads_with_epidnone();
	test_switch_snapshot_fills_bufdesc();
	test_fill_policy_stops_at_reserve();
	test_fill_reserve_must_fit();
	test_ring_wraps_and_tracks_oldest();
	test_ring_unwrapped_snapshot();
	test_ring_big_record_unwraps();
	test_resize_auto_halves_until_it_fits();
	test_resize_speculation_buffers();
	test_resize_manual_fails();
	test_cpu_option_allocates_one_cpu();
	test_nonroot_buffer_limit_is_efbig();
	test_snapshot_room();
	return TEST_DONE();
}
