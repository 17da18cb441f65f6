/*
 * port/linux/cputimer.c: per-CPU periodic signals for profile and tick.
 *
 * For each online CPU (the process's affinity mask when the first timer
 * starts) the host runs one thread pinned to it with sched_setaffinity.
 * A cpu timer is one POSIX timer per such thread (or only the first, for
 * tick) on CLOCK_MONOTONIC, delivering LINUX_CPUTIMER_SIGNAL to that very
 * thread (SIGEV_THREAD_ID).  The signal handler is probe context: it turns
 * the interrupted ucontext into isa_regs_t, publishes it in
 * linux_trap_regs and calls the timer's fire function.
 *
 * A signal can still be queued when its timer is deleted, so the handler
 * never dereferences anything the signal carries: si_value holds an index
 * into a static table and the entry's generation.  Each entry counts the
 * handlers running in it; stopping clears the entry's generation, deletes
 * the timers, then waits for that count to reach zero, so after
 * linux_cputimer_stop no fire call runs and none will start.  The threads
 * block every signal but that one and the synchronous faults (SIGSEGV,
 * SIGBUS, SIGTRAP: the nofault path needs them in the handler) and wait in
 * sigsuspend.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "linux_impl.h"

#define CPUTIMER_MAX 1024 /* cpu timers started and not yet stopped */
#define CPUTIMER_GEN_SHIFT 10

typedef struct cputimer_entry {
	_Atomic uint32_t ce_gen; /* 0: free; else generation of the live timer */
	_Atomic uint32_t ce_inflight;
	linux_cputimer_fn_t ce_fire;
	void *ce_arg;
} cputimer_entry_t;

struct linux_cputimer {
	uint32_t ct_index;
	uint32_t ct_ntimers;
	timer_t ct_timers[];
};

typedef struct cpu_thread {
	pthread_t cth_thread;
	_Atomic pid_t cth_tid;
	int cth_cpu;
} cpu_thread_t;

static cputimer_entry_t entries[CPUTIMER_MAX];
static uint32_t next_gen = 1;
static pthread_mutex_t cputimer_lock = PTHREAD_MUTEX_INITIALIZER;
static cpu_thread_t *cpu_threads;
static uint32_t ncpu_threads;
static _Atomic bool cpu_threads_exit;
static int cputimer_signal;

static void
cputimer_handler(int sig, siginfo_t *si, void *ctx)
{
	uint32_t v = (uint32_t)si->si_value.sival_int;
	uint32_t idx = v & (CPUTIMER_MAX - 1), gen = v >> CPUTIMER_GEN_SHIFT;
	cputimer_entry_t *e = &entries[idx];
	const isa_regs_t *saved_regs;
	isa_regs_t regs;
	int *ep = linux_errno(), saved_errno = *ep;

	(void)sig;
	if (si->si_code != SI_TIMER)
		return;
	atomic_fetch_add(&e->ce_inflight, 1);
	if (gen != 0 && atomic_load(&e->ce_gen) == gen) {
		linux_mcontext_to_regs(ctx, &regs);
		saved_regs = linux_trap_regs;
		linux_trap_regs = &regs;
		e->ce_fire(e->ce_arg, &regs);
		linux_trap_regs = saved_regs;
	}
	atomic_fetch_sub(&e->ce_inflight, 1);
	*ep = saved_errno;
}

static void *
cpu_thread_main(void *arg)
{
	cpu_thread_t *ct = arg;
	cpu_set_t set;
	sigset_t wait_mask;

	CPU_ZERO(&set);
	CPU_SET(ct->cth_cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	atomic_store(&ct->cth_tid, (pid_t)syscall(SYS_gettid));
	/* The timer's handler runs with this mask: synchronous faults must
	 * stay deliverable or a nofault load in probe context kills the
	 * process instead of returning a fault. */
	sigfillset(&wait_mask);
	sigdelset(&wait_mask, cputimer_signal);
	sigdelset(&wait_mask, SIGSEGV);
	sigdelset(&wait_mask, SIGBUS);
	sigdelset(&wait_mask, SIGTRAP);
	while (!atomic_load(&cpu_threads_exit))
		sigsuspend(&wait_mask);
	return NULL;
}

/* Start one pinned thread per CPU of the affinity mask; cputimer_lock held. */
static int
cpu_threads_start(void)
{
	struct sigaction sa;
	cpu_set_t online;
	sigset_t block, old;
	uint32_t n = 0, i;
	int cpu, err = 0;

	if (cpu_threads != NULL)
		return 0;
	cputimer_signal = SIGRTMIN + 7;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = cputimer_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(cputimer_signal, &sa, NULL) != 0)
		return errno;
	if (sched_getaffinity(0, sizeof(online), &online) != 0)
		return errno;
	cpu_threads = calloc((size_t)CPU_COUNT(&online), sizeof(*cpu_threads));
	if (cpu_threads == NULL)
		return DTRACE_ENOMEM;
	atomic_store(&cpu_threads_exit, false);
	/* Threads start with everything blocked; sigsuspend opens the one. */
	sigfillset(&block);
	sigdelset(&block, SIGSEGV);
	sigdelset(&block, SIGBUS);
	sigdelset(&block, SIGTRAP);
	pthread_sigmask(SIG_SETMASK, &block, &old);
	for (cpu = 0; cpu < CPU_SETSIZE && n < (uint32_t)CPU_COUNT(&online); cpu++) {
		if (!CPU_ISSET(cpu, &online))
			continue;
		cpu_threads[n].cth_cpu = cpu;
		err = pthread_create(&cpu_threads[n].cth_thread, NULL, cpu_thread_main,
				     &cpu_threads[n]);
		if (err != 0)
			break;
		n++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	ncpu_threads = n;
	/* Timers need each thread's tid. */
	for (i = 0; i < n; i++)
		while (atomic_load(&cpu_threads[i].cth_tid) == 0)
			sched_yield();
	if (n == 0) {
		free(cpu_threads);
		cpu_threads = NULL;
		return err != 0 ? err : DTRACE_ENOENT;
	}
	return 0;
}

uint32_t
linux_cputimer_ncpus(void)
{
	cpu_set_t online;

	if (ncpu_threads != 0)
		return ncpu_threads;
	if (sched_getaffinity(0, sizeof(online), &online) != 0)
		return 1;
	return (uint32_t)CPU_COUNT(&online);
}

int
linux_cputimer_start(bool all_cpus, uint64_t interval_ns, linux_cputimer_fn_t fire, void *arg,
		     linux_cputimer_t **tp)
{
	struct itimerspec its;
	struct sigevent sev;
	linux_cputimer_t *t;
	uint32_t idx, gen, i, n;
	int err;

	if (interval_ns == 0 || fire == NULL)
		return DTRACE_EINVAL;
	pthread_mutex_lock(&cputimer_lock);
	if ((err = cpu_threads_start()) != 0)
		goto out;
	for (idx = 0; idx < CPUTIMER_MAX; idx++)
		if (atomic_load(&entries[idx].ce_gen) == 0)
			break;
	if (idx == CPUTIMER_MAX) {
		err = DTRACE_ENOSPC;
		goto out;
	}
	n = all_cpus ? ncpu_threads : 1;
	t = calloc(1, sizeof(*t) + n * sizeof(timer_t));
	if (t == NULL) {
		err = DTRACE_ENOMEM;
		goto out;
	}
	gen = next_gen++;
	if (next_gen >= (1U << (32 - CPUTIMER_GEN_SHIFT - 1)))
		next_gen = 1;
	entries[idx].ce_fire = fire;
	entries[idx].ce_arg = arg;
	atomic_store(&entries[idx].ce_gen, gen);
	t->ct_index = idx;
	memset(&its, 0, sizeof(its));
	its.it_interval.tv_sec = (time_t)(interval_ns / 1000000000ULL);
	its.it_interval.tv_nsec = (long)(interval_ns % 1000000000ULL);
	its.it_value = its.it_interval;
	for (i = 0; i < n; i++) {
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = cputimer_signal;
		sev.sigev_value.sival_int = (int)((gen << CPUTIMER_GEN_SHIFT) | idx);
		/* glibc 2.36 spells sigev_notify_thread_id this way */
		sev._sigev_un._tid = atomic_load(&cpu_threads[i].cth_tid);
		if (timer_create(CLOCK_MONOTONIC, &sev, &t->ct_timers[i]) != 0) {
			err = errno;
			break;
		}
		t->ct_ntimers++;
	}
	for (i = 0; err == 0 && i < t->ct_ntimers; i++)
		if (timer_settime(t->ct_timers[i], 0, &its, NULL) != 0)
			err = errno;
	if (err != 0) {
		pthread_mutex_unlock(&cputimer_lock);
		linux_cputimer_stop(t);
		return err;
	}
	*tp = t;
out:
	pthread_mutex_unlock(&cputimer_lock);
	return err;
}

void
linux_cputimer_stop(linux_cputimer_t *t)
{
	cputimer_entry_t *e;
	uint32_t i;

	if (t == NULL)
		return;
	e = &entries[t->ct_index];
	atomic_store(&e->ce_gen, 0);
	for (i = 0; i < t->ct_ntimers; i++)
		timer_delete(t->ct_timers[i]);
	while (atomic_load(&e->ce_inflight) != 0)
		sched_yield();
	free(t);
}

void
linux_cputimer_shutdown(void)
{
	uint32_t i;

	pthread_mutex_lock(&cputimer_lock);
	if (cpu_threads != NULL) {
		atomic_store(&cpu_threads_exit, true);
		for (i = 0; i < ncpu_threads; i++) {
			pthread_kill(cpu_threads[i].cth_thread, cputimer_signal);
			pthread_join(cpu_threads[i].cth_thread, NULL);
		}
		free(cpu_threads);
		cpu_threads = NULL;
		ncpu_threads = 0;
	}
	pthread_mutex_unlock(&cputimer_lock);
}
