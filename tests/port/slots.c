/*
 * tests/port/slots.c: CPU slots and cross-calls.
 *
 * A thread in probe context cannot enter again (recursion refused); two
 * threads get different slots; a cross-call to a busy slot waits until the
 * holder leaves and then runs with the slot held (a probe trying to enter
 * meanwhile is refused); a cross-call to all slots runs once per slot;
 * slots are released at thread exit and reused.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "linux_impl.h"
#include "port_test.h"

static _Atomic int holder_state; /* 0 start, 1 holding, 2 released */
static _Atomic int holder_cpu = -1;
static _Atomic int xcall_saw_release;
static _Atomic int xcall_runs;

static void
sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

static void *
holder(void *arg)
{
	dtrace_cpuid_t cpu;
	uintptr_t cookie;

	(void)arg;
	if (!dtrace_port_probe_enter(&cpu, &cookie))
		return NULL;
	atomic_store(&holder_cpu, (int)cpu);
	atomic_store(&holder_state, 1);
	sleep_ms(200); /* "probe context" that lasts */
	atomic_store(&holder_state, 2);
	dtrace_port_probe_exit(cpu, cookie);
	return NULL;
}

static void
xcall_fn(void *arg)
{
	(void)arg;
	atomic_store(&xcall_saw_release, atomic_load(&holder_state) == 2);
	atomic_fetch_add(&xcall_runs, 1);
}

static void
count_fn(void *arg)
{
	atomic_fetch_add((_Atomic int *)arg, 1);
}

static void *
try_enter(void *arg)
{
	dtrace_cpuid_t cpu;
	uintptr_t cookie;
	int *out = arg;

	if (dtrace_port_probe_enter(&cpu, &cookie)) {
		out[0] = 1;
		out[1] = (int)cpu;
		dtrace_port_probe_exit(cpu, cookie);
	}
	return NULL;
}

int
main(void)
{
	dtrace_cpuid_t cpu, cpu2;
	uintptr_t cookie, cookie2;
	pthread_t t;
	int other[2] = {0, -1}, runs = 0;

	CHECK(linux_arena_create((size_t)64 << 20) == 0, "arena");
	linux_slots_init(4);
	CHECK(dtrace_port_ncpus() == 4, "ncpus %u", dtrace_port_ncpus());

	CHECK(dtrace_port_probe_enter(&cpu, &cookie), "enter");
	CHECK(cpu < 4, "slot %u", cpu);
	CHECK(!dtrace_port_probe_enter(&cpu2, &cookie2), "recursion refused");
	pthread_create(&t, NULL, try_enter, other);
	pthread_join(t, NULL);
	CHECK(other[0] == 1 && other[1] != (int)cpu, "another thread gets another slot (%d, %u)",
	      other[1], cpu);
	dtrace_port_probe_exit(cpu, cookie);
	CHECK(dtrace_port_probe_enter(&cpu2, &cookie2) && cpu2 == cpu, "re-enter after exit");
	dtrace_port_probe_exit(cpu2, cookie2);

	/* Cross-call waits for a busy slot. */
	pthread_create(&t, NULL, holder, NULL);
	while (atomic_load(&holder_state) == 0)
		sleep_ms(1);
	dtrace_port_xcall((dtrace_cpuid_t)atomic_load(&holder_cpu), xcall_fn, NULL);
	CHECK(atomic_load(&xcall_runs) == 1 && atomic_load(&xcall_saw_release),
	      "xcall ran after the holder left");
	pthread_join(t, NULL);

	dtrace_port_xcall(DTRACE_CPU_ALL, count_fn, &runs);
	CHECK(runs == 4, "xcall to all ran %d times", runs);

	/* Slots are given back at thread exit: many short threads in turn
	 * each still get a slot of their own. */
	for (runs = 0; runs < 20; runs++) {
		other[0] = 0;
		pthread_create(&t, NULL, try_enter, other);
		pthread_join(t, NULL);
		CHECK(other[0] == 1, "thread %d entered", runs);
	}
	TEST_DONE();
}
