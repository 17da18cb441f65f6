/*
 * bench/pid/pidbench.c: the program the pid benchmarks trace.
 *
 *   pidbench [-t THREADS] CALLS   each thread calls bench_fn() CALLS times
 *                                 in a tight loop, then the program prints
 *                                 one line:
 *       calls <total> threads <T> elapsed_ns <wall> ns_per_call <x.xx>
 *       cpu_ns_per_call <y.yy>
 *                                 ns_per_call is one thread's loop time
 *                                 (CLOCK_MONOTONIC) over its calls,
 *                                 cpu_ns_per_call its CPU time
 *                                 (CLOCK_THREAD_CPUTIME_ID: user and
 *                                 system, so a kernel's uprobe handling
 *                                 and signal delivery are in it), each
 *                                 the fastest thread's when there are
 *                                 several.  On a shared, loaded machine
 *                                 the CPU time is the steadier figure.
 *   pidbench -s CALLS             the same loop around bench_trap(), which
 *                                 executes one breakpoint that the
 *                                 program's own SIGTRAP handler passes
 *                                 over: what the kernel's signal delivery
 *                                 and sigreturn cost, the floor under a
 *                                 probe fired from a signal handler.
 *   pidbench -o                   prints the offsets in bench_fn of its
 *                                 out-of-line and RIP-relative sites:
 *       ool 0x4 rip 0x8 load 0x10
 *
 * bench_fn (sites_<isa>.S) returns its argument plus one: each thread
 * checks the sum of what it got back, and a lone thread also checks the
 * function's own call counter, so a probe whose step went wrong shows as
 * exit status 1 rather than a plausible time.  Only the loop is timed:
 * start-up, the agent's attach and the consumer's exit are not in it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

long bench_fn(long x);
void bench_trap(void);
void bench_trap_handler(int sig, siginfo_t *si, void *ctx);
extern const uint64_t bench_fn_offsets[3];
extern volatile long bench_calls;

#define MAX_THREADS 256

typedef struct runner {
	pthread_t r_thread;
	long r_calls;
	int64_t r_ns;
	int64_t r_cpu_ns;
	int r_ok;
	int r_trap;
} runner_t;

static int64_t
clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *
run(void *arg)
{
	runner_t *r = arg;
	long sum = 0, n = r->r_calls;
	int64_t t0 = clock_ns(CLOCK_MONOTONIC), c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);

	if (r->r_trap) {
		for (long i = 0; i < n; i++)
			bench_trap();
		sum = n * (n + 1) / 2;
	} else {
		for (long i = 0; i < n; i++)
			sum += bench_fn(i);
	}
	r->r_cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	r->r_ns = clock_ns(CLOCK_MONOTONIC) - t0;
	/* sum of i + 1 for i in [0, n) */
	r->r_ok = sum == n * (n + 1) / 2;
	return NULL;
}

static int
usage(void)
{
	fprintf(stderr, "usage: pidbench [-s] [-t threads] calls | pidbench -o\n");
	return 2;
}

int
main(int argc, char **argv)
{
	static runner_t rs[MAX_THREADS];
	long calls, threads = 1;
	int64_t t0, wall, best = INT64_MAX, best_cpu = INT64_MAX;
	int opt, ok = 1, trap = 0;

	while ((opt = getopt(argc, argv, "ost:")) != -1) {
		switch (opt) {
		case 'o':
			printf("ool 0x%llx rip 0x%llx load 0x%llx\n",
			       (unsigned long long)bench_fn_offsets[0],
			       (unsigned long long)bench_fn_offsets[1],
			       (unsigned long long)bench_fn_offsets[2]);
			return 0;
		case 's':
			trap = 1;
			break;
		case 't':
			threads = atol(optarg);
			break;
		default:
			return usage();
		}
	}
	if (optind + 1 != argc || threads < 1 || threads > MAX_THREADS)
		return usage();
	calls = atol(argv[optind]);
	if (calls < 1)
		return usage();
	if (trap) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = bench_trap_handler;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGTRAP, &sa, NULL) != 0) {
			perror("pidbench: sigaction");
			return 1;
		}
	}

	t0 = clock_ns(CLOCK_MONOTONIC);
	for (long i = 0; i < threads; i++) {
		rs[i].r_calls = calls;
		rs[i].r_trap = trap;
	}
	if (threads == 1) {
		run(&rs[0]);
	} else {
		for (long i = 0; i < threads; i++) {
			if (pthread_create(&rs[i].r_thread, NULL, run, &rs[i]) != 0) {
				perror("pidbench: pthread_create");
				return 1;
			}
		}
		for (long i = 0; i < threads; i++)
			pthread_join(rs[i].r_thread, NULL);
	}
	wall = clock_ns(CLOCK_MONOTONIC) - t0;
	for (long i = 0; i < threads; i++) {
		ok &= rs[i].r_ok;
		if (rs[i].r_ns < best)
			best = rs[i].r_ns;
		if (rs[i].r_cpu_ns < best_cpu)
			best_cpu = rs[i].r_cpu_ns;
	}
	/* Threads race on the counter's plain add; one thread must not. */
	if (threads == 1 && !trap && bench_calls != calls)
		ok = 0;
	printf("calls %ld threads %ld elapsed_ns %lld ns_per_call %.2f cpu_ns_per_call %.2f\n",
	       calls * threads, threads, (long long)wall, (double)best / (double)calls,
	       (double)best_cpu / (double)calls);
	if (!ok)
		fprintf(stderr, "pidbench: bench_fn returned wrong values or missed calls\n");
	return ok ? 0 : 1;
}
