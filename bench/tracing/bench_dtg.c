/*
 * bench_dtg N: DTrace's own USDT (dtrace -h, dtrace -G), for run.sh: N
 * iterations of a probe guarded by its is-enabled test, printing the
 * nanoseconds per iteration (is-enabled off: an `xor` and a branch; on:
 * a breakpoint at the is-enabled site, then the probe fires).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_dtg.h"

__attribute__((noinline)) static void
once(long i)
{
	if (BENCHG_FIRE_ENABLED())
		BENCHG_FIRE(i);
	__asm__ volatile("" ::: "memory");
}

int
main(int argc, char **argv)
{
	struct timespec t0, t1;
	long n = argc > 1 ? atol(argv[1]) : 0;

	if (n <= 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++)
		once(i);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.1f\n", ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
				 (double)n);
	return 0;
}
