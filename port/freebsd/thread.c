/*
 * port/freebsd/thread.c: the current thread, where stacks start, and
 * destructive actions (port.h sections 7, 8 and 9) on FreeBSD.
 *
 * Facts come from curthread and its process, read without locks as
 * DTrace's dtrace.c reads them; a probe in a hardware interrupt
 * (td_intr_nesting_level > 0) reports the facts of no thread, with a thread
 * key that folds the nesting level into the top bits.  uid/gid are the
 * effective ids of td_ucred.  vtimestamp derives from the thread's run time
 * in cpu_ticks() (td_runtime plus the time since the last switch), at the
 * resolution cputick2usec gives.
 *
 * Stacks, arguments and uregs[] are kernel/stack.c's: kernel stacks start at
 * dtrace_probe()'s frame, recorded at probe entry (cpu.c), or at the
 * registers of a breakpoint trap (trap.c); user stacks at the thread's user
 * trapframe (td_frame).
 *
 * raise() and stop() are posted: the signal is delivered by a timer within
 * a tick (kern_psignal takes the process lock, which probe context may not).
 */
#include "freebsd_impl.h"
#include "kernel_port.h"

#include <sys/kdb.h>
#include <sys/smp.h>
#include <machine/atomic.h>
#include <sys/signalvar.h>
#include <sys/ucred.h>

static bool
fbsd_in_intr(void)
{
	return curthread->td_intr_nesting_level > 0;
}

uint64_t
dtrace_port_curthread_value(dtrace_thread_fact_t fact)
{
	struct thread *td = curthread;
	struct proc *p = td->td_proc;
	uint64_t lvl = (uint64_t)td->td_intr_nesting_level;

	if (lvl > 0 && fact != DTRACE_THR_KEY && fact != DTRACE_THR_HWCPU &&
	    fact != DTRACE_THR_CURTHREAD)
		return 0;
	switch (fact) {
	case DTRACE_THR_PID:
		return (uint64_t)p->p_pid;
	case DTRACE_THR_TID:
		return (uint64_t)td->td_tid;
	case DTRACE_THR_PPID:
		return p->p_pptr != NULL ? (uint64_t)p->p_pptr->p_pid : 0;
	case DTRACE_THR_UID:
		return (uint64_t)td->td_ucred->cr_uid;
	case DTRACE_THR_GID:
		return (uint64_t)td->td_ucred->cr_gid;
	case DTRACE_THR_ERRNO:
		return (uint64_t)td->td_errno;
	case DTRACE_THR_KEY:
		return (((uint64_t)td->td_tid + DIF_VARIABLE_MAX) & ((1ull << 61) - 1)) |
		       ((lvl > 7 ? 7 : lvl) << 61);
	case DTRACE_THR_VTIME:
		return cputick2usec(td->td_runtime + cpu_ticks() - PCPU_GET(switchtime)) * 1000;
	case DTRACE_THR_HWCPU:
		return (uint64_t)curcpu;
	case DTRACE_THR_CURTHREAD:
		return (uint64_t)(uintptr_t)td;
	default:
		return 0;
	}
}

const char *
dtrace_port_curthread_execname(void)
{
	return fbsd_in_intr() ? proc0.p_comm : curthread->td_proc->p_comm;
}

/* --- What kernel/stack.c walks from ------------------------------------------ */

const isa_regs_t *
kern_trap_regs(void)
{
	return fbsd_cpu_self()->fc_trapregs;
}

uintptr_t
kern_probe_fp(void)
{
	return fbsd_cpu_self()->fc_probe_fp;
}

/* --- User registers (kernel/ustack.c walks from them) ----------------------- */

bool
kern_user_regs(isa_regs_t *regs)
{
	struct thread *td = curthread;

	if (fbsd_in_intr() || td->td_frame == NULL || (td->td_proc->p_flag & P_SYSTEM) != 0)
		return false;
	fbsd_md_regs(td->td_frame, regs);
	return true;
}

/* --- Destructive actions ---------------------------------------------------- */

static struct callout fbsd_post_callout;

/* one pending signal per CPU, as DTrace keeps one per thread */
static void
fbsd_post(int sig)
{
	if (!fbsd_in_intr())
		kpost_put(&fbsd_cpu_self()->fc_post, (uint32_t)curthread->td_proc->p_pid, sig);
}

void
dtrace_port_raise(int sig)
{
	fbsd_post(sig);
}

void
dtrace_port_stop(void)
{
	fbsd_post(SIGSTOP);
}

void
dtrace_port_breakpoint(void)
{
	kdb_enter(KDB_WHY_DTRACE, "breakpoint action");
}

/* Deliver what probes posted. */
static void
fbsd_post_deliver(void *arg)
{
	struct proc *p;
	uint64_t w;

	(void)arg;
	for (u_int cpu = 0; cpu <= mp_maxid; cpu++) {
		if ((w = kpost_take(&fbsd_cpus[cpu].fc_post)) != 0 &&
		    (p = pfind((pid_t)kpost_pid(w))) != NULL) {
			kern_psignal(p, kpost_sig(w));
			PROC_UNLOCK(p);
		}
	}
	callout_schedule(&fbsd_post_callout, 1);
}

int
fbsd_post_init(void)
{
	callout_init(&fbsd_post_callout, 1);
	callout_reset(&fbsd_post_callout, 1, fbsd_post_deliver, NULL);
	return 0;
}

int
fbsd_post_fini(void)
{
	callout_drain(&fbsd_post_callout);
	return 0;
}
