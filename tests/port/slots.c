/*
 * tests/port/slots.c: CPU slots and cross-calls.
 *
 * A thread takes the slot of the processor it runs on (checked on every
 * processor it may use, by pinning); while that slot is held another
 * thread on the same processor falls back to an overflow slot; a thread in
 * probe context cannot enter again (recursion refused, even though its
 * overflow slot is free); two threads get different slots; a cross-call to
 * a busy slot waits until the holder leaves and then runs with the slot
 * held; a cross-call to all slots runs once per slot; overflow slots are
 * released at thread exit and reused.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "linux_impl.h"
#include "port_test.h"

static void
pin(int hw)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(hw, &set);
	CHECK(sched_setaffinity(0, sizeof(set), &set) == 0, "pin to CPU %d", hw);
}

typedef struct pinned {
	int p_hw;	 /* processor to run on */
	int p_entered;	 /* 1 if enter succeeded */
	int p_slot;	 /* the slot it got */
	int p_recursed;	 /* 1 if a second enter succeeded (it must not) */
	int p_hold_ms;	 /* stay in probe context this long */
	_Atomic int p_in;   /* set while in probe context */
	_Atomic int p_done; /* set when finished */
} pinned_t;

static void *
pinned_enter(void *arg)
{
	pinned_t *p = arg;
	dtrace_cpuid_t cpu, cpu2;
	uintptr_t cookie, cookie2;

	pin(p->p_hw);
	if (!dtrace_port_probe_enter(&cpu, &cookie)) {
		atomic_store(&p->p_done, 1);
		return NULL;
	}
	p->p_entered = 1;
	p->p_slot = (int)cpu;
	if (dtrace_port_probe_enter(&cpu2, &cookie2)) {
		p->p_recursed = 1;
		dtrace_port_probe_exit(cpu2, cookie2);
	}
	atomic_store(&p->p_in, 1);
	if (p->p_hold_ms != 0) {
		struct timespec ts = {0, (long)p->p_hold_ms * 1000000L};
		nanosleep(&ts, NULL);
	}
	dtrace_port_probe_exit(cpu, cookie);
	atomic_store(&p->p_in, 0);
	atomic_store(&p->p_done, 1);
	return NULL;
}

/*
 * Slots follow processors: for every processor this process may use, a
 * thread pinned there gets that processor's slot; while one thread holds
 * it, a second thread pinned to the same processor gets an overflow slot
 * (>= the number of processors' slots) instead of being dropped.
 */
static void
test_slots_follow_processors(void)
{
	uint32_t nhw = linux_arena->la_nhwslots;
	cpu_set_t allowed;
	pinned_t a, b;
	pthread_t ta, tb;
	int hw, tested = 0;

	CHECK(sched_getaffinity(0, sizeof(allowed), &allowed) == 0, "affinity");
	for (hw = 0; hw < CPU_SETSIZE && (uint32_t)hw < nhw; hw++) {
		if (!CPU_ISSET(hw, &allowed))
			continue;
		memset(&a, 0, sizeof(a));
		a.p_hw = hw;
		pthread_create(&ta, NULL, pinned_enter, &a);
		pthread_join(ta, NULL);
		CHECK(a.p_entered && a.p_slot == hw, "thread on CPU %d got slot %d", hw, a.p_slot);
		CHECK(!a.p_recursed, "recursion refused on CPU %d", hw);

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		a.p_hw = b.p_hw = hw;
		a.p_hold_ms = 300;
		pthread_create(&ta, NULL, pinned_enter, &a);
		while (!atomic_load(&a.p_in) && !atomic_load(&a.p_done))
			sched_yield();
		pthread_create(&tb, NULL, pinned_enter, &b);
		pthread_join(tb, NULL);
		pthread_join(ta, NULL);
		CHECK(a.p_slot == hw, "holder on CPU %d got slot %d", hw, a.p_slot);
		CHECK(b.p_entered && (uint32_t)b.p_slot >= nhw &&
			      (uint32_t)b.p_slot < dtrace_port_ncpus(),
		      "second thread on busy CPU %d got overflow slot %d", hw, b.p_slot);
		CHECK(!b.p_recursed, "recursion refused in an overflow slot");
		tested++;
	}
	CHECK(tested > 0, "no processor tested");
}

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
	uint32_t nslots;

	CHECK(linux_arena_create((size_t)64 << 20) == 0, "arena");
	/* One overflow slot beyond the processors', whatever the machine. */
	linux_slots_init((uint32_t)sysconf(_SC_NPROCESSORS_CONF) + 1);
	nslots = dtrace_port_ncpus();
	CHECK(nslots == (uint32_t)sysconf(_SC_NPROCESSORS_CONF) + 1 &&
		      linux_arena->la_nhwslots == nslots - 1,
	      "slots %u, processors' %u", nslots, linux_arena->la_nhwslots);

	test_slots_follow_processors();

	/* The rest runs pinned, so "the same slot again" is well defined. */
	pin(sched_getcpu());
	CHECK(dtrace_port_probe_enter(&cpu, &cookie), "enter");
	CHECK(cpu == (dtrace_cpuid_t)sched_getcpu(), "slot %u on CPU %d", cpu, sched_getcpu());
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
	CHECK(runs == (int)nslots, "xcall to all ran %d times", runs);

	/* Overflow slots are given back at thread exit: while this thread
	 * holds its processor's slot, many short threads on that processor
	 * in turn each claim the one overflow slot and leave it free. */
	CHECK(dtrace_port_probe_enter(&cpu, &cookie), "hold the processor's slot");
	for (runs = 0; runs < 20; runs++) {
		pinned_t p;

		memset(&p, 0, sizeof(p));
		p.p_hw = sched_getcpu();
		pthread_create(&t, NULL, pinned_enter, &p);
		pthread_join(t, NULL);
		CHECK(p.p_entered && (uint32_t)p.p_slot == nslots - 1, "thread %d: slot %d", runs,
		      p.p_slot);
		CHECK(atomic_load(&linux_arena_rw->lr_slots[nslots - 1].ls_owner) == 0,
		      "thread %d gave its overflow slot back", runs);
	}
	dtrace_port_probe_exit(cpu, cookie);
	TEST_DONE();
}
