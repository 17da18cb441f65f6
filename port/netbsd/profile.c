/*
 * port/netbsd/profile.c: the OS half of the `profile` provider
 * (kernel/profile.c has the names, probes and arguments).
 *
 * The clock is a dtrace_port_timer per enabled probe (timer.c: a kernel
 * thread on the kernel's tick, hz resolution, shorter intervals kept in
 * bursts).  tick-N fires in that thread, bound to CPU 0; profile-N fires on every CPU
 * through an xc_broadcast, whose function runs on each CPU in turn.  No
 * interrupt is taken, so the interrupted PCs (arg0, arg1) are 0.  A kernel
 * with KDTRACE_HOOKS also calls cyclic_clock_func[cpu] from hardclock with
 * the interrupted frame; the rump kernel has no such hook, and this provider
 * serves both.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/cpu.h>
#include <sys/xcall.h>

#include "netbsd_impl.h"
#include "profile.h"

/* On each CPU, in its cross-call thread. */
static void
prof_fire_here(void *arg, void *unused)
{
	(void)unused;
	kprof_fire(arg, cpu_index(curcpu()), 0, 0);
}

/* The probe's timer thread, once per interval. */
static void
prof_tick(void *arg)
{
	kprof_t *kp = arg;

	if (kp->kp_kind == KPROF_PROFILE) {
		xc_wait(xc_broadcast(0, prof_fire_here, kp, NULL));
		return;
	}
	kpreempt_disable();
	kprof_fire(kp, cpu_index(curcpu()), 0, 0);
	kpreempt_enable();
}

/* tick-N on CPU 0, as DTrace's tick probes keep to one CPU; profile-N's
 * thread only starts the cross-call, anywhere. */
static int
prof_start(kprof_t *kp)
{
	kp->kp_os = dtnb_timer_start_on(kp->kp_kind == KPROF_TICK ? cpu_lookup(0) : NULL,
					kp->kp_interval, prof_tick, kp);
	return kp->kp_os == NULL ? DTRACE_ENOMEM : 0;
}

static void
prof_stop(kprof_t *kp)
{
	dtrace_port_timer_cancel(kp->kp_os);
	kp->kp_os = NULL;
}

static const kprof_ops_t prof_ops = {prof_start, prof_stop, 0};

int
dtnb_profile_init(void)
{
	return kprof_register(&prof_ops);
}

int
dtnb_profile_fini(void)
{
	return kprof_unregister();
}
