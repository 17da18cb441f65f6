/*
 * port/netbsd/timer.c: periodic timers (port.h §11), also the clock of the
 * profile provider.
 *
 * Each timer is a kernel thread that makes the calls due (kernel/ktimer.h)
 * and sleeps on a condition variable until its next deadline.  A callout
 * would be lighter, but callouts run in a soft interrupt, which may not
 * sleep, and the core's timers do (the cleaner's dtrace_port_xcall waits
 * in xc_wait).  Deadlines are absolute (dtrace_port_gethrtime), the sleep
 * is in clock ticks (hz), and an interval shorter than a tick is kept by
 * calling fn once per interval that passed (at most KTIMER_BURST in a
 * row), so tick-1ms still fires 1000 times a second on a 100 Hz kernel, in
 * bursts.  dtnb_timer_start_on() binds the thread to one CPU.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/condvar.h>
#include <sys/kernel.h>
#include <sys/kmem.h>
#include <sys/kthread.h>
#include <sys/mutex.h>

#include "netbsd_impl.h"
#include "ktimer.h"

struct dtrace_port_timer {
	kmutex_t dt_lock;
	kcondvar_t dt_cv;
	bool dt_stop;
	ktimer_t dt_kt;
	struct lwp *dt_lwp;
};

static int
dtnb_ns2ticks(uint64_t ns)
{
	uint64_t t = ns / (1000000000ULL / (uint64_t)hz);

	return t < 1 ? 1 : t > INT_MAX ? INT_MAX : (int)t;
}

static void
dtnb_timer_thread(void *arg)
{
	dtrace_port_timer_t *t = arg;
	uint64_t ns;

	mutex_enter(&t->dt_lock);
	while (!t->dt_stop) {
		mutex_exit(&t->dt_lock);
		ns = ktimer_run(&t->dt_kt);
		mutex_enter(&t->dt_lock);
		if (!t->dt_stop)
			(void)cv_timedwait(&t->dt_cv, &t->dt_lock, dtnb_ns2ticks(ns));
	}
	mutex_exit(&t->dt_lock);
	kthread_exit(0);
}

dtrace_port_timer_t *
dtrace_port_timer_start(uint64_t interval_ns, void (*fn)(void *), void *arg)
{
	return dtnb_timer_start_on(NULL, interval_ns, fn, arg);
}

dtrace_port_timer_t *
dtnb_timer_start_on(struct cpu_info *ci, uint64_t interval_ns, void (*fn)(void *), void *arg)
{
	dtrace_port_timer_t *t;

	if (interval_ns == 0 || (t = kmem_zalloc(sizeof(*t), KM_SLEEP)) == NULL)
		return NULL;
	mutex_init(&t->dt_lock, MUTEX_DEFAULT, IPL_NONE);
	cv_init(&t->dt_cv, "dttimer");
	ktimer_init(&t->dt_kt, interval_ns, fn, arg);
	if (kthread_create(PRI_NONE, KTHREAD_MPSAFE | KTHREAD_MUSTJOIN, ci, dtnb_timer_thread,
			   t, &t->dt_lwp, "dttimer") != 0) {
		cv_destroy(&t->dt_cv);
		mutex_destroy(&t->dt_lock);
		kmem_free(t, sizeof(*t));
		return NULL;
	}
	return t;
}

void
dtrace_port_timer_cancel(dtrace_port_timer_t *t)
{
	if (t == NULL)
		return;
	mutex_enter(&t->dt_lock);
	t->dt_stop = true;
	cv_broadcast(&t->dt_cv);
	mutex_exit(&t->dt_lock);
	(void)kthread_join(t->dt_lwp);
	cv_destroy(&t->dt_cv);
	mutex_destroy(&t->dt_lock);
	kmem_free(t, sizeof(*t));
}
