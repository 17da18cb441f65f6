/*
 * Speculations: allocation and exhaustion of nspec, speculate/commit/discard
 * through DTrace's state machine on one and several CPUs (interleavings
 * played out on the test port's CPUs), commit restamping records, the
 * cleaner finishing other CPUs' parts, and every drop counter.
 */
#include <pthread.h>

#include "dtrace_impl.h"
#include "spec_record.h"
#include "test_util.h"
#include "testport.h"
#include "core_globals.h"

static dtrace_state_t state;
static dtrace_state_rw_t state_rw; /* what probe context writes about it */
static dtrace_ecb_t ecb1;
static dtrace_ecb_t *ecbtab[1];

#define RECSIZE SPEC_RECSIZE

static void
state_init(uint32_t ncpus, int64_t nspec, int64_t specsize, int64_t bufsize)
{
	testport_reset(false);
	testport_set_ncpus(ncpus);
	memset(&state, 0, sizeof(state));
	memset(&state_rw, 0, sizeof(state_rw));
	state.dts_rw = &state_rw;
	for (int i = 0; i < DTRACEOPT_MAX; i++)
		state.dts_options[i] = DTRACEOPT_UNSET;
	state.dts_options[DTRACEOPT_BUFSIZE] = bufsize;
	state.dts_options[DTRACEOPT_SPECSIZE] = specsize;
	state.dts_options[DTRACEOPT_NSPEC] = nspec;
	memset(&ecb1, 0, sizeof(ecb1));
	ecb1.dte_epid = 1;
	ecb1.dte_size = RECSIZE;
	ecb1.dte_needed = RECSIZE;
	ecbtab[0] = &ecb1;
	state.dts_ecbs = ecbtab;
	state.dts_necbs = 1;
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	dtrace_buffer_activate(&state);
	state.dts_activity = DTRACE_ACTIVITY_ACTIVE;
	test_core_globals();
	if (dtrace_cpu_core == NULL)
		dtrace_cpu_core = calloc(TESTPORT_MAXCPUS, sizeof(dtrace_cpu_core_t));
	memset(dtrace_cpu_core, 0, TESTPORT_MAXCPUS * sizeof(dtrace_cpu_core_t));
}

static uint32_t
spec_state(dtrace_specid_t id)
{
	return state.dts_speculations[id - 1].dtsp_state;
}

/* speculate(id); trace(seq) as the ECB walker does it, on `cpu`. */
static bool
speculate(dtrace_cpuid_t cpu, dtrace_specid_t id, uint32_t seq)
{
	return spec_record(&state, cpu, id, seq);
}

/* The sequence numbers and timestamps of the records in CPU cpu's principal buffer. */
static int
principal(dtrace_cpuid_t cpu, uint32_t *seqs, uint64_t *stamps, int max)
{
	dtrace_buffer_t *buf = &state.dts_buffer[cpu];
	int n = 0;

	for (uint64_t o = 0; o < buf->dtb_offset && n < max;) {
		dtrace_rechdr_t hdr;

		memcpy(&hdr, buf->dtb_tomax + o, sizeof(hdr));
		if (hdr.dtrh_epid == DTRACE_EPIDNONE) {
			o += 4;
			continue;
		}
		memcpy(&seqs[n], buf->dtb_tomax + o + 12, 4);
		stamps[n] = DTRACE_RECORD_LOAD_TIMESTAMP(&hdr);
		n++;
		o += RECSIZE;
	}
	return n;
}

static void
test_commit_on_the_speculating_cpu(void)
{
	uint32_t seqs[8];
	uint64_t stamps[8];
	dtrace_specid_t id;

	state_init(2, 1, 256, 256);
	id = dtrace_speculation(&state);
	CHECK_EQ(id, 1);
	CHECK_EQ(spec_state(id), DTRACESPEC_ACTIVE);
	CHECK(speculate(1, id, 10));
	CHECK_EQ(spec_state(id), DTRACESPEC_ACTIVEONE);
	CHECK(speculate(1, id, 11));
	CHECK_EQ(spec_state(id), DTRACESPEC_ACTIVEONE);
	/* nothing reaches the principal buffer before the commit */
	CHECK_EQ(state.dts_buffer[1].dtb_offset, 0);

	testport_set_time(500);
	dtrace_speculation_commit(&state, 1, id);
	CHECK_EQ(spec_state(id), DTRACESPEC_INACTIVE);
	CHECK_EQ(state.dts_speculations[0].dtsp_buffer[1].dtb_offset, 0);
	CHECK_EQ(principal(1, seqs, stamps, 8), 2);
	CHECK_EQ(seqs[0], 10);
	CHECK_EQ(seqs[1], 11);
	CHECK_EQ(stamps[0], 500);
	CHECK_EQ(stamps[1], 500);
	CHECK_EQ(state.dts_buffer[0].dtb_offset, 0);

	/* free again: the next speculation() gets it back */
	CHECK_EQ(dtrace_speculation(&state), 1);
	/* a commit with no speculate() anywhere: ACTIVE -> free at once */
	dtrace_speculation_commit(&state, 0, 1);
	CHECK_EQ(spec_state(1), DTRACESPEC_INACTIVE);
	/* commit/discard of id 0 or of an inactive speculation: nothing */
	dtrace_speculation_commit(&state, 0, 0);
	dtrace_speculation_discard(&state, 0, 1);
	CHECK_EQ(spec_state(1), DTRACESPEC_INACTIVE);
	CHECK(!speculate(0, 1, 99));
	CHECK(!speculate(0, 0, 99));
	dtrace_state_buffers_free(&state);
	CHECK_EQ(testport_alloc_outstanding(), 0);
}

static void
test_nspec_exhaustion_counts_unavail_and_busy(void)
{
	dtrace_status_t st;

	state_init(2, 2, 256, 256);
	CHECK_EQ(dtrace_speculation(&state), 1);
	CHECK_EQ(dtrace_speculation(&state), 2);
	CHECK_EQ(dtrace_speculation(&state), 0);
	CHECK_EQ(dtrace_speculation(&state), 0);
	CHECK_EQ(state_rw.dsr_speculations_unavail, 2);
	CHECK_EQ(state_rw.dsr_speculations_busy, 0);

	/* speculation 1 spans both CPUs and is committed: busy until cleaned */
	CHECK(speculate(0, 1, 1));
	CHECK(speculate(1, 1, 2));
	CHECK_EQ(spec_state(1), DTRACESPEC_ACTIVEMANY);
	dtrace_speculation_commit(&state, 0, 1);
	CHECK_EQ(spec_state(1), DTRACESPEC_COMMITTINGMANY);
	CHECK_EQ(dtrace_speculation(&state), 0);
	CHECK_EQ(state_rw.dsr_speculations_busy, 1);
	CHECK_EQ(state_rw.dsr_speculations_unavail, 2);

	memset(&st, 0, sizeof(st));
	dtrace_buffer_status(&state, &st);
	CHECK_EQ(st.dtst_specdrops_busy, 1);
	CHECK_EQ(st.dtst_specdrops_unavail, 2);
	CHECK_EQ(st.dtst_specdrops, 0);

	dtrace_speculation_clean(&state);
	CHECK_EQ(spec_state(1), DTRACESPEC_INACTIVE);
	CHECK_EQ(dtrace_speculation(&state), 1);
	dtrace_state_buffers_free(&state);

	/* nspec 0: never a speculation */
	state_init(1, 0, 256, 256);
	CHECK_EQ(dtrace_speculation(&state), 0);
	CHECK_EQ(state_rw.dsr_speculations_unavail, 1);
	dtrace_state_buffers_free(&state);
}

static void
test_commit_elsewhere_waits_for_cleaner(void)
{
	uint32_t seqs[8];
	uint64_t stamps[8];
	dtrace_specid_t id;

	state_init(2, 1, 256, 256);
	id = dtrace_speculation(&state);
	/* CPU 1 speculates; CPU 0 (which never did) commits */
	CHECK(speculate(1, id, 7));
	CHECK(speculate(1, id, 8));
	/* CPU 0's principal buffer holds a 12-byte record: the empty commit
	 * still aligns it to 8, as DTrace's reservation does */
	state.dts_buffer[0].dtb_offset = 12;
	testport_set_time(100);
	dtrace_speculation_commit(&state, 0, id);
	CHECK_EQ(spec_state(id), DTRACESPEC_COMMITTINGMANY);
	CHECK_EQ(state.dts_buffer[0].dtb_offset, 16);
	CHECK_EQ(state.dts_buffer[1].dtb_offset, 0);
	/* refused while committing */
	CHECK(!speculate(1, id, 9));
	CHECK_EQ(dtrace_speculation(&state), 0);

	testport_set_time(300);
	uint64_t xc = testport_xcalls();
	dtrace_speculation_clean(&state);
	CHECK_EQ(testport_xcalls(), xc + 2); /* one per CPU */
	CHECK_EQ(spec_state(id), DTRACESPEC_INACTIVE);
	CHECK_EQ(principal(1, seqs, stamps, 8), 2);
	CHECK_EQ(seqs[0], 7);
	CHECK_EQ(seqs[1], 8);
	CHECK_EQ(stamps[0], 300);
	CHECK_EQ(state.dts_speculations[0].dtsp_buffer[1].dtb_offset, 0);

	/* nothing to clean: no cross-calls */
	xc = testport_xcalls();
	dtrace_speculation_clean(&state);
	CHECK_EQ(testport_xcalls(), xc);
	dtrace_state_buffers_free(&state);
}

static void
test_commit_while_another_cpu_speculates(void)
{
	uint32_t seqs[8];
	uint64_t stamps[8];
	dtrace_specid_t id;

	/*
	 * CPU 0 and CPU 1 speculate into one id; CPU 0 commits while CPU 1 is
	 * still in its clause: CPU 1's next speculate() is refused, then its
	 * own commit() copies what it had.  The cleaner must not copy it twice.
	 */
	state_init(2, 1, 256, 256);
	id = dtrace_speculation(&state);
	CHECK(speculate(0, id, 1));
	CHECK(speculate(1, id, 2));
	CHECK_EQ(spec_state(id), DTRACESPEC_ACTIVEMANY);
	testport_set_time(10);
	dtrace_speculation_commit(&state, 0, id);
	CHECK_EQ(spec_state(id), DTRACESPEC_COMMITTINGMANY);
	CHECK_EQ(principal(0, seqs, stamps, 8), 1);
	CHECK_EQ(seqs[0], 1);
	CHECK_EQ(stamps[0], 10);
	CHECK(!speculate(1, id, 3));
	testport_set_time(20);
	dtrace_speculation_commit(&state, 1, id);
	CHECK_EQ(spec_state(id), DTRACESPEC_COMMITTINGMANY);
	CHECK_EQ(principal(1, seqs, stamps, 8), 1);
	CHECK_EQ(seqs[0], 2);
	CHECK_EQ(stamps[0], 20);
	testport_set_time(30);
	dtrace_speculation_clean(&state);
	CHECK_EQ(spec_state(id), DTRACESPEC_INACTIVE);
	CHECK_EQ(principal(0, seqs, stamps, 8), 1);
	CHECK_EQ(principal(1, seqs, stamps, 8), 1);

	/* a discard racing the commit loses: nothing is discarded */
	id = dtrace_speculation(&state);
	CHECK(speculate(0, id, 4));
	CHECK(speculate(1, id, 5));
	dtrace_speculation_commit(&state, 1, id);
	dtrace_speculation_discard(&state, 0, id);
	CHECK_EQ(spec_state(id), DTRACESPEC_COMMITTINGMANY);
	dtrace_speculation_clean(&state);
	CHECK_EQ(principal(0, seqs, stamps, 8), 2);
	CHECK_EQ(seqs[1], 4);
	CHECK_EQ(principal(1, seqs, stamps, 8), 2);
	CHECK_EQ(seqs[1], 5);
	dtrace_state_buffers_free(&state);
}

static void
test_discard(void)
{
	uint32_t seqs[8];
	uint64_t stamps[8];
	dtrace_specid_t id;

	state_init(2, 1, 256, 256);
	/* one CPU, discarded there: free at once */
	id = dtrace_speculation(&state);
	CHECK(speculate(0, id, 1));
	dtrace_speculation_discard(&state, 0, id);
	CHECK_EQ(spec_state(id), DTRACESPEC_INACTIVE);
	CHECK_EQ(state.dts_speculations[0].dtsp_buffer[0].dtb_offset, 0);

	/* ACTIVE (never speculated) discarded: needs the cleaner */
	id = dtrace_speculation(&state);
	dtrace_speculation_discard(&state, 1, id);
	CHECK_EQ(spec_state(id), DTRACESPEC_DISCARDING);
	dtrace_speculation_clean(&state);
	CHECK_EQ(spec_state(id), DTRACESPEC_INACTIVE);

	/* two CPUs: DISCARDING, refused meanwhile, a commit does nothing,
	 * the cleaner empties both */
	id = dtrace_speculation(&state);
	CHECK(speculate(0, id, 2));
	CHECK(speculate(1, id, 3));
	dtrace_speculation_discard(&state, 1, id);
	CHECK_EQ(spec_state(id), DTRACESPEC_DISCARDING);
	CHECK(!speculate(0, id, 4));
	dtrace_speculation_commit(&state, 0, id);
	CHECK_EQ(spec_state(id), DTRACESPEC_DISCARDING);
	CHECK_EQ(state.dts_speculations[0].dtsp_buffer[0].dtb_offset, RECSIZE);
	dtrace_speculation_clean(&state);
	CHECK_EQ(spec_state(id), DTRACESPEC_INACTIVE);
	CHECK_EQ(state.dts_speculations[0].dtsp_buffer[0].dtb_offset, 0);
	CHECK_EQ(principal(0, seqs, stamps, 8), 0);
	CHECK_EQ(principal(1, seqs, stamps, 8), 0);

	/* ACTIVEONE discarded by the other CPU: DISCARDING */
	id = dtrace_speculation(&state);
	CHECK(speculate(1, id, 5));
	dtrace_speculation_discard(&state, 0, id);
	CHECK_EQ(spec_state(id), DTRACESPEC_DISCARDING);
	dtrace_speculation_clean(&state);
	CHECK_EQ(spec_state(id), DTRACESPEC_INACTIVE);
	CHECK_EQ(state.dts_speculations[0].dtsp_buffer[1].dtb_offset, 0);
	dtrace_state_buffers_free(&state);
}

static void
test_drops(void)
{
	dtrace_status_t st;
	dtrace_specid_t id;

	/* speculation buffers of 32 bytes: the third record drops */
	state_init(1, 2, 32, 32);
	id = dtrace_speculation(&state);
	CHECK(speculate(0, id, 1));
	CHECK(speculate(0, id, 2));
	CHECK(!speculate(0, id, 3));
	CHECK_EQ(state.dts_speculations[0].dtsp_buffer[0].dtb_drops, 1);
	dtrace_speculation_commit(&state, 0, id);
	/* committed: its drops become speculation drops */
	memset(&st, 0, sizeof(st));
	dtrace_buffer_status(&state, &st);
	CHECK_EQ(st.dtst_specdrops, 1);
	CHECK_EQ(state.dts_buffer[0].dtb_offset, 32);

	/* a discarded speculation's drops are forgotten */
	id = dtrace_speculation(&state);
	CHECK(speculate(0, id, 4));
	CHECK(speculate(0, id, 5));
	CHECK(!speculate(0, id, 6));
	dtrace_speculation_discard(&state, 0, id);
	memset(&st, 0, sizeof(st));
	dtrace_buffer_status(&state, &st);
	CHECK_EQ(st.dtst_specdrops, 1);

	/* committing into a full principal buffer: DTrace counts two drops
	 * (the reservation's and the commit's), and the speculation is free */
	id = dtrace_speculation(&state);
	CHECK(speculate(0, id, 7));
	dtrace_speculation_commit(&state, 0, id);
	CHECK_EQ(state.dts_buffer[0].dtb_drops, 2);
	CHECK_EQ(state.dts_buffer[0].dtb_offset, 32);
	CHECK_EQ(spec_state(id), DTRACESPEC_INACTIVE);
	CHECK_EQ(state.dts_speculations[id - 1].dtsp_buffer[0].dtb_offset, 0);
	dtrace_state_buffers_free(&state);
}

static void
test_bad_id_is_illop(void)
{
	state_init(2, 2, 64, 64);
	CHECK(dtrace_speculation_buffer(&state, 1, 3) == NULL);
	CHECK(dtrace_cpu_core[1].cpuc_flags & DTRACE_CPUF_ILLOP);
	CHECK(!(dtrace_cpu_core[0].cpuc_flags & DTRACE_CPUF_ILLOP));
	dtrace_cpu_core[1].cpuc_flags = 0;
	dtrace_speculation_commit(&state, 1, 3);
	CHECK(dtrace_cpu_core[1].cpuc_flags & DTRACE_CPUF_ILLOP);
	dtrace_cpu_core[1].cpuc_flags = 0;
	dtrace_speculation_discard(&state, 1, 3);
	CHECK(dtrace_cpu_core[1].cpuc_flags & DTRACE_CPUF_ILLOP);
	dtrace_state_buffers_free(&state);
}

/* --- Concurrent allocation: no id is ever held twice ----------------------- */

#define NTHREADS 4
#define ITERS 20000
static volatile uint32_t owner[8 + 1];
static uint64_t got[NTHREADS], bad[NTHREADS];

static void *
worker(void *arg)
{
	uint32_t me = (uint32_t)(uintptr_t)arg;

	testport_set_cpu(me);
	for (int i = 0; i < ITERS; i++) {
		dtrace_specid_t id = dtrace_speculation(&state);

		if (id == 0)
			continue;
		if (__atomic_exchange_n(&owner[id], me + 1, __ATOMIC_SEQ_CST) != 0)
			bad[me]++;
		got[me]++;
		__atomic_store_n(&owner[id], 0, __ATOMIC_SEQ_CST);
		dtrace_speculation_commit(&state, me, id);
	}
	return NULL;
}

static void
test_concurrent_allocation(void)
{
	pthread_t t[NTHREADS];
	uint64_t total = 0;

	state_init(NTHREADS, 3, 64, 1 << 20);
	for (uintptr_t i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], NULL);
		CHECK_EQ(bad[i], 0);
		total += got[i];
	}
	CHECK_EQ(total + state_rw.dsr_speculations_unavail + state_rw.dsr_speculations_busy,
		 (uint64_t)NTHREADS * ITERS);
	for (int i = 1; i <= 3; i++)
		CHECK_EQ(spec_state((dtrace_specid_t)i), DTRACESPEC_INACTIVE);
	dtrace_state_buffers_free(&state);
}

int
main(void)
{
	test_commit_on_the_speculating_cpu();
	test_nspec_exhaustion_counts_unavail_and_busy();
	test_commit_elsewhere_waits_for_cleaner();
	test_commit_while_another_cpu_speculates();
	test_discard();
	test_drops();
	test_bad_id_is_illop();
	test_concurrent_allocation();
	return TEST_DONE();
}
