/*
 * port/netbsd/destructive.c: destructive actions (port.h §9).
 *
 * raise() and stop() are posted, not performed: NetBSD's DTrace calls
 * psignal() with proc_lock held from probe context, but proc_lock is an
 * adaptive mutex, which probe context (splhigh, maybe in an interrupt) may
 * not take.  The probe records the pid and signal in its CPU's slot
 * (kernel/kpost.h; depth one, as illumos's t_dtrace_sig) and schedules a
 * soft interrupt on that CPU, which sends the signal once the CPU drops
 * below IPL_SOFTCLOCK.
 *
 * breakpoint() would enter the kernel debugger, but Debugger() exists only
 * in kernels with DDB and a module cannot know: it does nothing.  panic()
 * is the kernel's.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/cpu.h>
#include <sys/intr.h>
#include <sys/proc.h>
#include <sys/signalvar.h>

#include "netbsd_impl.h"

static void *dtnb_sig_softint;

static void
dtnb_sig_deliver(void *arg)
{
	struct proc *p;
	uint64_t w;

	(void)arg;
	/* a soft interrupt runs on the CPU that scheduled it */
	if ((w = kpost_take(&dtnb_curcpu()->dc_post)) == 0)
		return;
	mutex_enter(proc_lock);
	if ((p = proc_find((pid_t)kpost_pid(w))) != NULL)
		psignal(p, kpost_sig(w));
	mutex_exit(proc_lock);
}

static void
dtnb_sig_post(int sig)
{
	if (dtnb_sig_softint == NULL || cpu_intr_p() || curproc->p_pid == 0)
		return;
	kpost_put(&dtnb_curcpu()->dc_post, (uint32_t)curproc->p_pid, sig);
	softint_schedule(dtnb_sig_softint);
}

void
dtrace_port_raise(int sig)
{
	dtnb_sig_post(sig);
}

void
dtrace_port_stop(void)
{
	dtnb_sig_post(SIGSTOP);
}

void
dtrace_port_breakpoint(void)
{
}

int
dtnb_destructive_init(void)
{
	dtnb_sig_softint = softint_establish(SOFTINT_CLOCK | SOFTINT_MPSAFE, dtnb_sig_deliver, NULL);
	return dtnb_sig_softint == NULL ? ENOMEM : 0;
}

int
dtnb_destructive_fini(void)
{
	if (dtnb_sig_softint != NULL)
		softint_disestablish(dtnb_sig_softint);
	dtnb_sig_softint = NULL;
	return 0;
}
