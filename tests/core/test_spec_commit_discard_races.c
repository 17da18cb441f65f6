/*
 * Speculation commit/discard races on simulated CPUs running at once: one
 * host thread per CPU loops in probe context over speculation(),
 * speculate(id) + a record carrying a unique sequence number, and
 * commit(id) (ids 5-8) or discard(id) (ids 1-4), while another thread runs
 * the cleaner, whose cross-calls wait for each CPU to leave probe context.
 * When everything has settled:
 *   - every record that reached a principal buffer was speculated into a
 *     committed id, appears once, and was restamped by its commit;
 *   - nothing speculated into a discarded id ever appears;
 *   - every record speculated into a committed id appears (no principal buffer
 *     dropped anything);
 *   - every speculation is INACTIVE again.
 */
#include <pthread.h>
#include <sched.h>

#include "dtrace_impl.h"
#include "spec_record.h"
#include "test_util.h"
#include "testport.h"
#include "core_globals.h"

#define NWORKERS 3
#define NSPEC 8
#define ITERS 200000 /* at most; a worker stops once both kinds are plentiful */
#define ENOUGH 2000
#define RECSIZE SPEC_RECSIZE

static dtrace_state_t state;
static dtrace_state_rw_t state_rw; /* what probe context writes about it */
static dtrace_ecb_t ecb1;
static dtrace_ecb_t *ecbtab[1];
static volatile int done;
static uint64_t nkept, ndropped; /* speculated records so far, all workers */
static pthread_barrier_t start; /* workers and cleaner begin together */

/* What each worker managed to speculate: seq -> id (0: nothing). */
static uint8_t spec_id[NWORKERS][ITERS];

static uint32_t
seq_of(uint32_t cpu, uint32_t i)
{
	return (cpu << 24) | i;
}

/* speculate(id); trace(seq) as the ECB walker does it, on `cpu`. */
static bool
speculate(dtrace_cpuid_t cpu, dtrace_specid_t id, uint32_t seq)
{
	return spec_record(&state, cpu, id, seq);
}

/* Committed ids: the upper half (speculation() hands out the lowest free
 * id, so the slower discarded ones get the lower half to be used at all). */
static bool
committed(dtrace_specid_t id)
{
	return id > NSPEC / 2;
}

static void
finish(dtrace_cpuid_t cpu, dtrace_specid_t id)
{
	if (committed(id))
		dtrace_speculation_commit(&state, cpu, id);
	else
		dtrace_speculation_discard(&state, cpu, id);
}

static void *
worker(void *arg)
{
	uint32_t me = (uint32_t)(uintptr_t)arg, rnd = 12345u + me * 7919u;

	testport_set_cpu(me);
	pthread_barrier_wait(&start);
	for (uint32_t i = 0; i < ITERS; i++) {
		dtrace_cpuid_t cpu;
		uintptr_t cookie;
		uint32_t r, id;

		/* the cleaner's cross-call may hold this CPU for a moment */
		while (!dtrace_port_probe_enter(&cpu, &cookie))
			sched_yield();
		rnd = rnd * 1103515245u + 12345u;
		r = (rnd >> 16) % 10;
		id = 1 + (rnd >> 8) % NSPEC;
		if (r < 2) {
			if (dtrace_speculation(&state) == 0)
				r = 10; /* all taken: the cleaner has work */
		} else if (r < 9 && speculate(cpu, id, seq_of(me, i))) {
			spec_id[me][i] = (uint8_t)id;
			__atomic_add_fetch(committed(id) ? &nkept : &ndropped, 1, __ATOMIC_RELAXED);
		} else if (r == 9) {
			finish(cpu, id);
		}
		dtrace_port_probe_exit(cpu, cookie);
		/* two host cores for four threads: let the cleaner in */
		if (r == 10 || (i & 31) == 0)
			sched_yield();
		if (__atomic_load_n(&nkept, __ATOMIC_RELAXED) >= ENOUGH &&
		    __atomic_load_n(&ndropped, __ATOMIC_RELAXED) >= ENOUGH)
			break;
	}
	return NULL;
}

static void *
cleaner(void *arg)
{
	(void)arg;
	testport_set_cpu(NWORKERS); /* a CPU of its own, never in probe context */
	pthread_barrier_wait(&start);
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		dtrace_speculation_clean(&state);
		sched_yield();
	}
	return NULL;
}

int
main(void)
{
	static uint8_t seen[NWORKERS][ITERS];
	pthread_t t[NWORKERS], c;
	uint64_t speculated_kept = 0, speculated_dropped = 0, found = 0, drops = 0;

	testport_reset(false);
	testport_set_ncpus(NWORKERS + 1);
	state.dts_rw = &state_rw;
	for (int i = 0; i < DTRACEOPT_MAX; i++)
		state.dts_options[i] = DTRACEOPT_UNSET;
	state.dts_options[DTRACEOPT_BUFSIZE] = 2 << 20;
	state.dts_options[DTRACEOPT_SPECSIZE] = 64 << 10;
	state.dts_options[DTRACEOPT_NSPEC] = NSPEC;
	ecb1.dte_epid = 1;
	ecb1.dte_size = RECSIZE;
	ecb1.dte_needed = RECSIZE;
	ecbtab[0] = &ecb1;
	state.dts_ecbs = ecbtab;
	state.dts_necbs = 1;
	test_core_globals();
	dtrace_cpu_core = calloc(TESTPORT_MAXCPUS, sizeof(dtrace_cpu_core_t));
	dtrace_ncpus = NWORKERS + 1;
	CHECK_EQ(dtrace_state_buffers(&state), 0);
	dtrace_buffer_activate(&state);
	state.dts_activity = DTRACE_ACTIVITY_ACTIVE;

	pthread_barrier_init(&start, NULL, NWORKERS + 1);
	pthread_create(&c, NULL, cleaner, NULL);
	for (uintptr_t i = 0; i < NWORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < NWORKERS; i++)
		pthread_join(t[i], NULL);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(c, NULL);
	pthread_barrier_destroy(&start);

	/* settle: finish every speculation from CPU 0, let the cleaner finish
	 * the other CPUs' parts */
	testport_set_cpu(0);
	for (dtrace_specid_t id = 1; id <= NSPEC; id++) {
		dtrace_cpuid_t cpu;
		uintptr_t cookie;

		CHECK(dtrace_port_probe_enter(&cpu, &cookie));
		finish(cpu, id);
		dtrace_port_probe_exit(cpu, cookie);
	}
	for (int k = 0; k < 4; k++)
		dtrace_speculation_clean(&state);
	for (int i = 0; i < NSPEC; i++)
		CHECK_EQ(state.dts_speculations[i].dtsp_state, DTRACESPEC_INACTIVE);

	for (uint32_t cpu = 0; cpu <= NWORKERS; cpu++) {
		dtrace_buffer_t *buf = &state.dts_buffer[cpu];

		drops += buf->dtb_drops;
		for (uint64_t o = 0; o < buf->dtb_offset;) {
			dtrace_rechdr_t hdr;
			uint32_t seq, w, i;

			memcpy(&hdr, buf->dtb_tomax + o, sizeof(hdr));
			if (hdr.dtrh_epid == DTRACE_EPIDNONE) {
				o += 4;
				continue;
			}
			memcpy(&seq, buf->dtb_tomax + o + 12, 4);
			o += RECSIZE;
			w = seq >> 24;
			i = seq & 0xffffff;
			CHECK(w < NWORKERS && i < ITERS);
			if (w >= NWORKERS || i >= ITERS)
				continue;
			CHECK(committed(spec_id[w][i])); /* speculated, into a committed id */
			CHECK_EQ(seen[w][i], 0);  /* once */
			CHECK(DTRACE_RECORD_LOAD_TIMESTAMP(&hdr) != UINT64_MAX);
			seen[w][i] = 1;
			found++;
		}
	}
	for (int w = 0; w < NWORKERS; w++) {
		for (int i = 0; i < ITERS; i++) {
			if (spec_id[w][i] == 0)
				continue;
			if (committed(spec_id[w][i])) {
				speculated_kept++;
				CHECK_EQ(seen[w][i], 1);
			} else {
				speculated_dropped++;
			}
		}
	}
	CHECK_EQ(drops, 0);
	CHECK_EQ(found, speculated_kept);
	/* the workload really raced: both kinds happened, in numbers */
	CHECK(speculated_kept >= ENOUGH / 2);
	CHECK(speculated_dropped >= ENOUGH / 2);
	printf("speculated %llu committed and %llu discarded records; %llu busy, %llu unavail\n",
	       (unsigned long long)speculated_kept, (unsigned long long)speculated_dropped,
	       (unsigned long long)state_rw.dsr_speculations_busy,
	       (unsigned long long)state_rw.dsr_speculations_unavail);

	dtrace_state_buffers_free(&state);
	free(dtrace_cpu_core);
	dtrace_cpu_core = NULL;
	dtrace_ncpus = 0;
	CHECK_EQ(testport_alloc_outstanding(), 0);
	return TEST_DONE();
}
