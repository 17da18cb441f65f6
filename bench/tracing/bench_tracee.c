/*
 * bench_tracee MODE N: the traced side of bench/tracing/run.sh.  Runs N
 * iterations of one thing and prints the nanoseconds per iteration:
 *   sys     a system call (getppid, through syscall(2) so no library
 *           caches it)
 *   usdt    a SystemTap probe whose program tests its semaphore first, as
 *           programs guard probes with costly arguments (is-enabled off:
 *           a load and a branch; on: the probe fires)
 *   nop     an empty loop iteration, the floor
 * A tracer attached before the loop decides what each costs.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

__extension__ unsigned short bench_fire_semaphore __attribute__((unused))
__attribute__((section(".probes")));

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

__attribute__((noinline)) static void
usdt_once(long i)
{
	if (bench_fire_semaphore)
		STAP_PROBE1(bench, fire, i);
	__asm__ volatile("" ::: "memory");
}

int
main(int argc, char **argv)
{
	long n, i;
	double t0, t1;

	if (argc < 3 || (n = atol(argv[2])) <= 0)
		return 2;
	t0 = now();
	if (strcmp(argv[1], "sys") == 0) {
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
	} else if (strcmp(argv[1], "usdt") == 0) {
		for (i = 0; i < n; i++)
			usdt_once(i);
	} else {
		for (i = 0; i < n; i++)
			__asm__ volatile("" ::: "memory");
	}
	t1 = now();
	printf("%.1f\n", (t1 - t0) / (double)n);
	return 0;
}
