/*
 * tests/port/timers.c: periodic timers and per-CPU signals.
 *
 * dtrace_port_timer: a 10 ms timer fires about 50 times in 0.5 s (counted
 * within wide bounds) and, once cancelled, never again.  Cpu timers: at
 * 100 Hz on every online CPU for 0.5 s each CPU's pinned thread fires,
 * every firing in probe-context shape (interrupted registers published,
 * on the CPU it is pinned to, a nofault load of a bad address caught as a
 * fault rather than killing the process); a single-CPU timer fires on one CPU only;
 * after stop nothing fires.  Bounds are generous: the machine may be busy.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "linux_impl.h"
#include "port_test.h"

#define MAXCPU 1024

static _Atomic int ticks;
static _Atomic int per_cpu[MAXCPU];
static _Atomic int bad_context;
static _Atomic int faults_caught;

static void
sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0)
		;
}

static void
on_timer(void *arg)
{
	(void)arg;
	atomic_fetch_add(&ticks, 1);
}

static void
on_cpu_timer(void *arg, const isa_regs_t *regs)
{
	int cpu = sched_getcpu();
	uintptr_t fault_addr = 0;
	uint64_t v;

	(void)arg;
	if (linux_trap_regs != regs || isa_regs_pc(regs) == 0)
		atomic_fetch_add(&bad_context, 1);
	/* Probe context does nofault loads of bad addresses: the fault must
	 * be caught here too (SIGSEGV unblocked in the handler). */
	if (dtrace_port_load(DTRACE_AS_KERNEL, 0x1008, 8, &v, &fault_addr) != 0 &&
	    fault_addr == 0x1008)
		atomic_fetch_add(&faults_caught, 1);
	if (cpu >= 0 && cpu < MAXCPU)
		atomic_fetch_add(&per_cpu[cpu], 1);
}

static int
cpus_fired(int min_each, int *total)
{
	int i, n = 0;

	*total = 0;
	for (i = 0; i < MAXCPU; i++) {
		if (atomic_load(&per_cpu[i]) >= min_each)
			n++;
		*total += atomic_load(&per_cpu[i]);
	}
	return n;
}

int
main(void)
{
	dtrace_port_timer_t *t;
	linux_cputimer_t *ct;
	uint32_t ncpu;
	int n, total, i;

	CHECK(linux_trap_install() == 0, "fault handlers");

	t = dtrace_port_timer_start(10 * 1000000ULL, on_timer, NULL);
	CHECK(t != NULL, "timer_start");
	sleep_ms(500);
	dtrace_port_timer_cancel(t);
	n = atomic_load(&ticks);
	CHECK(n >= 10 && n <= 60, "10 ms timer fired %d times in 0.5 s", n);
	sleep_ms(50);
	CHECK(atomic_load(&ticks) == n, "no firing after cancel");

	CHECK(linux_cputimer_start(true, 10 * 1000000ULL, on_cpu_timer, NULL, &ct) == 0,
	      "cputimer all");
	ncpu = linux_cputimer_ncpus();
	sleep_ms(500);
	linux_cputimer_stop(ct);
	n = cpus_fired(10, &total);
	CHECK(n == (int)ncpu, "%d of %u CPUs fired at least 10 times", n, ncpu);
	CHECK(total >= 10 * (int)ncpu && total <= 60 * (int)ncpu,
	      "100 Hz on %u CPUs for 0.5 s: %d firings", ncpu, total);
	CHECK(atomic_load(&bad_context) == 0, "firings with the interrupted registers");
	CHECK(atomic_load(&faults_caught) == total, "nofault loads caught in %d of %d firings",
	      atomic_load(&faults_caught), total);
	sleep_ms(50);
	cpus_fired(0, &n);
	CHECK(n == total, "no firing after stop (%d, %d)", n, total);

	for (i = 0; i < MAXCPU; i++)
		atomic_store(&per_cpu[i], 0);
	CHECK(linux_cputimer_start(false, 10 * 1000000ULL, on_cpu_timer, NULL, &ct) == 0,
	      "cputimer one");
	sleep_ms(500);
	linux_cputimer_stop(ct);
	n = cpus_fired(1, &total);
	CHECK(n == 1 && total >= 10 && total <= 60, "tick: %d CPUs, %d firings", n, total);
	linux_cputimer_shutdown();
	TEST_DONE();
}
