/*
 * port/linux/slots.c: CPU slots, probe context and cross-calls (port.h 1).
 *
 * The core keeps per-CPU buffers; in user space a "CPU" is a slot in the
 * arena that a thread holds while in probe context.  Slots 0 .. nhw-1
 * stand for the processors (nhw: the configured processors, at most the
 * number of slots); the rest are overflow slots.
 *
 * Entering probe context first tries the slot of the processor the thread
 * runs on (sched_getcpu(): rseq or the vDSO, no system call), so a probe
 * that fires on CPU 1 normally records in CPU 1's buffer and the consumer's
 * CPU column agrees with the D variable `cpu`, as users of DTrace expect.
 * Taking a slot is one compare-and-swap of its busy word from 0 to the
 * thread's id, never a wait.  A processor's slot can be busy although this
 * thread is not in probe context: another thread was preempted inside
 * probe context on that processor, or a cross-call holds the slot.  The
 * thread then uses its home slot, an overflow slot it claims the first
 * time it needs one: one no live thread owns (scanning the overflow slots
 * once, then once more reclaiming slots whose owner has died), or, when
 * every one is owned, one chosen by its tid and shared.  Ownership is
 * released when the thread exits and forgotten in a forked child.  If the
 * home slot is busy too, the probe is refused and the core counts a drop.
 *
 * Exclusivity rests on the busy word alone: whichever slot a thread takes,
 * no other thread and no cross-call touches that slot's buffers until it
 * leaves.  A thread that moves to another processor between probes records
 * in another slot, exactly as a kernel thread that migrates does.
 * Recursion (a signal that fires a probe while its thread is in probe
 * context) is refused by a per-thread flag set before any slot is tried,
 * since the interrupted probe may hold one slot while another is free.
 *
 * A cross-call takes each target slot's busy word the same way but waits
 * for it (yielding), so fn runs with the slot idle and held; a holder that
 * has died (its tid is gone) is taken over so a crashed process cannot
 * block the consumer.  A cross-call to every slot waits for all its busy
 * slots at once, since their holders may be threads preempted in probe
 * context.  The number of slots is fixed when the arena is
 * created: LINUX_SLOTS_PER_CPU per configured processor, at least
 * LINUX_MIN_SLOTS (traced processes bring their own threads, many more
 * than processors) and at most LINUX_MAX_SLOTS, so that threads rarely
 * share; a thread whose processor's and home slots are both busy takes
 * any idle one before a probe is refused.  Slots cost little until used:
 * their buffers are arena memory nothing has touched.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "linux_impl.h"

static LINUX_TLS int32_t home_slot = -1;
static LINUX_TLS bool home_owned;
/* Set while this thread is in probe context (refuses recursion). */
static LINUX_TLS volatile sig_atomic_t in_probe;
LINUX_TLS uintptr_t linux_probe_fp;
LINUX_TLS int linux_pending_signal;
LINUX_TLS bool linux_pending_stop;

static pthread_key_t slot_key;
static pthread_once_t slot_once = PTHREAD_ONCE_INIT;

static bool
holder_alive(uint64_t id)
{
	pid_t pid = (pid_t)(id >> 32), tid = (pid_t)(uint32_t)id;

	return !(syscall(SYS_tgkill, pid, tid, 0) != 0 && errno == ESRCH);
}

/* Thread exit: give the home slot back. */
static void
slot_release(void *unused)
{
	uint64_t me = linux_self_id();

	(void)unused;
	if (home_owned && linux_arena != NULL && home_slot >= 0)
		atomic_compare_exchange_strong(&linux_arena_rw->lr_slots[home_slot].ls_owner, &me, 0);
	home_owned = false;
	home_slot = -1;
}

static void
slot_atfork_child(void)
{
	linux_thread_forget();
	home_slot = -1;
	home_owned = false;
	in_probe = 0;
}

static void
slot_setup_once(void)
{
	pthread_key_create(&slot_key, slot_release);
	pthread_atfork(NULL, NULL, slot_atfork_child);
}

void
linux_slots_init(uint32_t nslots)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	uint32_t ncpu = conf < 1 ? 1 : conf > LINUX_MAX_SLOTS ? LINUX_MAX_SLOTS : (uint32_t)conf;

	pthread_once(&slot_once, slot_setup_once);
	if (linux_arena->la_nslots != 0)
		return;
	if (nslots == 0)
		nslots = ncpu * LINUX_SLOTS_PER_CPU < LINUX_MIN_SLOTS ? LINUX_MIN_SLOTS
								 : ncpu * LINUX_SLOTS_PER_CPU;
	if (nslots > LINUX_MAX_SLOTS)
		nslots = LINUX_MAX_SLOTS;
	linux_arena->la_nhwslots = ncpu < nslots ? ncpu : nslots;
	linux_arena->la_nslots = nslots;
}

/* The overflow slots home slots come from: [first, first + count). */
static void
home_range(uint32_t *first, uint32_t *count)
{
	uint32_t n = linux_arena->la_nslots, hw = linux_arena->la_nhwslots;

	/* With no slot beyond the processors' (an explicit small count),
	 * home slots are processors' slots too: still exclusive by busy. */
	*first = hw < n ? hw : 0;
	*count = hw < n ? n - hw : n;
}

uint32_t
dtrace_port_ncpus(void)
{
	return linux_arena != NULL ? linux_arena->la_nslots : 0;
}

/*
 * Claim a home slot.  Bounded (two passes over the overflow slots, one
 * system call per live-check) and non-blocking, so it may run in probe
 * context the first time a thread needs one.
 */
static int32_t
slot_claim(void)
{
	uint32_t first, n, start, i, s;
	uint64_t me = linux_self_id(), expect;

	home_range(&first, &n);
	start = (uint32_t)linux_self_tid() % n;
	for (i = 0; i < n; i++) {
		s = first + (start + i) % n;
		expect = 0;
		if (atomic_compare_exchange_strong(&linux_arena_rw->lr_slots[s].ls_owner, &expect, me))
			goto owned;
	}
	for (i = 0; i < n; i++) {
		s = first + (start + i) % n;
		expect = atomic_load(&linux_arena_rw->lr_slots[s].ls_owner);
		if (expect != me && !holder_alive(expect) &&
		    atomic_compare_exchange_strong(&linux_arena_rw->lr_slots[s].ls_owner, &expect, me))
			goto owned;
	}
	home_owned = false;
	return (int32_t)(first + start);
owned:
	home_owned = true;
	/* Non-NULL so the key's destructor runs at thread exit.  Keys below
	 * PTHREAD_KEY_2NDLEVEL_SIZE live in the thread descriptor: no
	 * allocation here. */
	pthread_setspecific(slot_key, (void *)1);
	return (int32_t)s;
}

/* Take slot s's busy word if it is free; never waits. */
static bool
slot_try(uint32_t s, uint64_t me)
{
	uint64_t expect = 0;

	return atomic_compare_exchange_strong_explicit(&linux_arena_rw->lr_slots[s].ls_busy, &expect,
						       me, memory_order_acquire,
						       memory_order_relaxed);
}

/*
 * The home slot is busy too (threads outnumber slots, and another thread
 * sharing it was preempted in probe context): take any idle overflow slot,
 * one pass, never waiting, before refusing the probe.
 */
static int32_t
slot_any(uint64_t me)
{
	uint32_t first, n, i;

	home_range(&first, &n);
	for (i = 0; i < n; i++)
		if (slot_try(first + i, me))
			return (int32_t)(first + i);
	return -1;
}

bool
linux_slots_in_probe(void)
{
	return in_probe != 0;
}

/* Where a refused firing is counted for the consumer to report: the
 * agent's counters in the arena (agent.c), NULL in the consumer. */
volatile uint64_t *linux_refused_count;

static bool
refuse(void)
{
	volatile uint64_t *c = linux_refused_count;

	if (c != NULL)
		__atomic_add_fetch(c, 1, __ATOMIC_RELAXED);
	return false;
}

bool
dtrace_port_probe_enter(dtrace_cpuid_t *cpu, uintptr_t *cookie_out)
{
	uint64_t me;
	int32_t s;
	int hw;

	if (linux_arena == NULL || linux_arena->la_nslots == 0)
		return false;
	if (in_probe)
		return refuse();
	/* A signal arriving from here on sees the flag and is refused; one
	 * that arrived before it ran to completion already. */
	in_probe = 1;
	atomic_signal_fence(memory_order_seq_cst);
	me = linux_self_id();
	hw = sched_getcpu();
	if (hw >= 0 && (uint32_t)hw < linux_arena->la_nhwslots && slot_try((uint32_t)hw, me)) {
		s = hw;
	} else {
		/* Claim anew after fork, a new arena, or losing the slot to
		 * a reclaim that took this thread for dead. */
		if (home_slot < 0 || (uint32_t)home_slot >= linux_arena->la_nslots ||
		    (home_owned &&
		     atomic_load_explicit(&linux_arena_rw->lr_slots[home_slot].ls_owner,
					  memory_order_relaxed) != me))
			home_slot = slot_claim();
		s = home_slot;
		if (!slot_try((uint32_t)s, me) && (s = slot_any(me)) < 0) {
			atomic_signal_fence(memory_order_seq_cst);
			in_probe = 0;
			return refuse();
		}
	}
	/* The frame of the core function entering probe context, for
	 * stacks of directly called probes (stack.c). */
	linux_probe_fp = isa_frame_caller_fp((uintptr_t)__builtin_frame_address(0));
	*cpu = (dtrace_cpuid_t)s;
	*cookie_out = 0;
	return true;
}

void
dtrace_port_probe_exit(dtrace_cpuid_t cpu, uintptr_t cookie)
{
	int sig;

	(void)cookie;
	linux_probe_fp = 0;
	atomic_store_explicit(&linux_arena_rw->lr_slots[cpu].ls_busy, 0, memory_order_release);
	atomic_signal_fence(memory_order_seq_cst);
	in_probe = 0;
	/* Posted destructive actions take effect outside probe context. */
	if (linux_pending_stop) {
		linux_pending_stop = false;
		syscall(SYS_kill, linux_self_pid(), SIGSTOP);
	}
	if ((sig = linux_pending_signal) != 0) {
		linux_pending_signal = 0;
		syscall(SYS_tgkill, linux_self_pid(), linux_self_tid(), sig);
	}
}

/*
 * A holder that signal 0 still reaches may be the leader of a process
 * that exited (a zombie until its parent, which may be this consumer,
 * reaps it) or a thread that is exiting: dead all the same for its slot.
 * Reads /proc: only for a cross-call that has waited long.
 */
static bool
holder_dead(uint64_t id)
{
	return !holder_alive(id) || linux_task_exited((pid_t)(id >> 32), (pid_t)(uint32_t)id);
}

/*
 * Take slot s for a cross-call if it is idle.  Once the caller has waited
 * long (late), a holder still there may be a thread that died in probe
 * context, which is short: its slot is taken over.
 */
static bool
slot_take_for_xcall(uint32_t s, uint64_t me, bool late)
{
	_Atomic uint64_t *busy = &linux_arena_rw->lr_slots[s].ls_busy;
	uint64_t expect = 0;

	if (atomic_compare_exchange_strong_explicit(busy, &expect, me, memory_order_acquire,
						    memory_order_relaxed))
		return true;
	return late && expect != 0 && holder_dead(expect) &&
	       atomic_compare_exchange_strong(busy, &expect, me);
}

/*
 * Every target slot is taken in turn as it comes idle: one pass runs fn on
 * each idle slot, and later passes go round the busy ones only, yielding
 * (then napping) between passes.  A holder may be a thread preempted in
 * probe context, which runs again only when the scheduler says so (tenths
 * of a second on a loaded machine), so waiting for all of them at once
 * makes a cross-call to every slot as long as the slowest holder, not the
 * sum of them, and the deadman's dtrace_sync() stays well inside its
 * timeout when threads outnumber processors.
 */
void
dtrace_port_xcall(dtrace_cpuid_t cpu, dtrace_xcall_fn_t fn, void *arg)
{
	uint32_t n = dtrace_port_ncpus(), lo = 0, hi = n, left, s;
	uint64_t me = linux_self_id();
	struct timespec nap = {0, 50000};
	bool done[LINUX_MAX_SLOTS] = {false};
	unsigned passes = 0;

	if (n > LINUX_MAX_SLOTS)
		n = hi = LINUX_MAX_SLOTS;
	if (cpu != DTRACE_CPU_ALL) {
		if (cpu >= n)
			return;
		lo = cpu;
		hi = cpu + 1;
	}
	for (left = hi - lo;;) {
		for (s = lo; s < hi; s++) {
			if (done[s] || !slot_take_for_xcall(s, me, passes >= 64))
				continue;
			fn(arg);
			atomic_store_explicit(&linux_arena_rw->lr_slots[s].ls_busy, 0,
					      memory_order_release);
			done[s] = true;
			left--;
		}
		if (left == 0)
			return;
		if (++passes < 64)
			sched_yield();
		else
			nanosleep(&nap, NULL);
	}
}
