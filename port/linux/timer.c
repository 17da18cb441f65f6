/*
 * port/linux/timer.c: periodic timers outside probe context (port.h 11).
 *
 * One helper thread per timer sleeps on a condition variable bound to
 * CLOCK_MONOTONIC until the next deadline (absolute, so calls do not
 * drift) and calls fn(arg) with no lock held.  If a call overruns, missed
 * deadlines are skipped rather than run back to back.  Cancelling wakes
 * the thread and joins it, so when dtrace_port_timer_cancel returns no call
 * is running or will start.  A timer must not cancel itself from its own
 * callback.  Timers belong to the process that started them (the
 * consumer); their memory is the process's own, not the arena's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include "linux_impl.h"

struct dtrace_port_timer {
	pthread_t dpt_thread;
	pthread_mutex_t dpt_lock;
	pthread_cond_t dpt_cv;
	bool dpt_cancelled;
	uint64_t dpt_interval;
	void (*dpt_fn)(void *);
	void *dpt_arg;
};

static void
ns_to_timespec(uint64_t ns, struct timespec *ts)
{
	ts->tv_sec = (time_t)(ns / 1000000000ULL);
	ts->tv_nsec = (long)(ns % 1000000000ULL);
}

static void *
timer_thread(void *arg)
{
	dtrace_port_timer_t *t = arg;
	uint64_t next = dtrace_port_gethrtime() + t->dpt_interval, now;
	struct timespec ts;

	pthread_mutex_lock(&t->dpt_lock);
	while (!t->dpt_cancelled) {
		ns_to_timespec(next, &ts);
		if (pthread_cond_timedwait(&t->dpt_cv, &t->dpt_lock, &ts) != ETIMEDOUT)
			continue; /* woken: cancelled, or spurious */
		pthread_mutex_unlock(&t->dpt_lock);
		t->dpt_fn(t->dpt_arg);
		now = dtrace_port_gethrtime();
		next += t->dpt_interval;
		if (next <= now)
			next = now + t->dpt_interval;
		pthread_mutex_lock(&t->dpt_lock);
	}
	pthread_mutex_unlock(&t->dpt_lock);
	return NULL;
}

dtrace_port_timer_t *
dtrace_port_timer_start(uint64_t interval_ns, void (*fn)(void *), void *arg)
{
	dtrace_port_timer_t *t;
	pthread_condattr_t ca;
	sigset_t all, old;
	int err;

	if (interval_ns == 0 || fn == NULL || (t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->dpt_interval = interval_ns;
	t->dpt_fn = fn;
	t->dpt_arg = arg;
	pthread_mutex_init(&t->dpt_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&t->dpt_cv, &ca);
	pthread_condattr_destroy(&ca);
	/* The helper takes no signals meant for the process, but faults
	 * (synchronous, and the nofault path's) stay deliverable. */
	sigfillset(&all);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGTRAP);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&t->dpt_thread, NULL, timer_thread, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		pthread_cond_destroy(&t->dpt_cv);
		pthread_mutex_destroy(&t->dpt_lock);
		free(t);
		return NULL;
	}
	return t;
}

void
dtrace_port_timer_cancel(dtrace_port_timer_t *t)
{
	if (t == NULL)
		return;
	pthread_mutex_lock(&t->dpt_lock);
	t->dpt_cancelled = true;
	pthread_cond_signal(&t->dpt_cv);
	pthread_mutex_unlock(&t->dpt_lock);
	pthread_join(t->dpt_thread, NULL);
	pthread_cond_destroy(&t->dpt_cv);
	pthread_mutex_destroy(&t->dpt_lock);
	free(t);
}
