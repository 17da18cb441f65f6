/*
 * port/illumos/thread.c: the current thread, user registers and destructive
 * actions (port.h sections 7, 8 and 9) on illumos.
 *
 * Facts are read from curthread, its lwp and process without locks, as
 * DTrace does.  Interrupt threads and high-level interrupts report process
 * 0's facts and a thread key with the interrupt depth above LOCK_LEVEL in
 * the top bits (DTrace's DTRACE_TLS_THRKEY).  vtimestamp is t_dtrace_vtime,
 * which the kernel keeps at every switch while dtrace_vtime_active is set
 * (the port sets it for as long as it is loaded), plus the time since the
 * thread's slice began.
 *
 * raise() and stop() are posted as DTrace posts them: t_dtrace_sig or
 * t_dtrace_stop, t_sig_check and an AST, acted on when the thread returns
 * to user mode.
 */
#include "illumos_impl.h"
#include "kernel_port.h"

#include <sys/cred_impl.h>
#include <sys/debug.h>
#include <sys/klwp.h>
#include <sys/privregs.h>
#include <sys/sysmacros.h>
#include <sys/user.h>

static uint64_t
ill_intr_depth(void)
{
	uint64_t n = 0;

	for (uint_t actv = CPU->cpu_intr_actv >> (LOCK_LEVEL + 1); actv != 0; actv >>= 1)
		n++;
	return n;
}

static bool
ill_in_intr(void)
{
	return (curthread->t_flag & T_INTR_THREAD) != 0 || CPU_ON_INTR(CPU) != 0;
}

uint64_t
dtrace_port_curthread_value(dtrace_thread_fact_t fact)
{
	kthread_t *t = curthread;
	proc_t *p = ill_in_intr() ? &p0 : t->t_procp;
	klwp_t *lwp = ttolwp(t);
	uint64_t depth;

	switch (fact) {
	case DTRACE_THR_PID:
		return (uint64_t)p->p_pid;
	case DTRACE_THR_TID:
		return ill_in_intr() ? 0 : (uint64_t)t->t_tid;
	case DTRACE_THR_PPID:
		return (uint64_t)p->p_ppid;
	case DTRACE_THR_UID:
		return (uint64_t)p->p_cred->cr_uid;
	case DTRACE_THR_GID:
		return (uint64_t)p->p_cred->cr_gid;
	case DTRACE_THR_ERRNO:
		return lwp != NULL && !ill_in_intr() ? (uint64_t)lwp->lwp_errno : 0;
	case DTRACE_THR_KEY:
		depth = ill_intr_depth();
		return ((t->t_did + DIF_VARIABLE_MAX) & ((1ull << 61) - 1)) |
		       ((depth > 7 ? 7 : depth) << 61);
	case DTRACE_THR_VTIME:
		return (uint64_t)t->t_dtrace_vtime +
		       (dtrace_port_gethrtime() - (uint64_t)t->t_dtrace_start);
	case DTRACE_THR_HWCPU:
		return (uint64_t)CPU->cpu_id;
	case DTRACE_THR_CURTHREAD:
		return (uint64_t)(uintptr_t)t;
	default:
		return 0;
	}
}

const char *
dtrace_port_curthread_execname(void)
{
	return ill_in_intr() ? p0.p_user.u_comm : curthread->t_procp->p_user.u_comm;
}

/* getmajor()/getminor(): the 64-bit dev_t split of sys/sysmacros.h. */
uint64_t
dtrace_port_dev_major(uint64_t dev)
{
	return (uint64_t)getmajor((dev_t)dev);
}

uint64_t
dtrace_port_dev_minor(uint64_t dev)
{
	return (uint64_t)getminor((dev_t)dev);
}

int
dtrace_port_curproc_progenyof(uint64_t pid)
{
	const proc_t *p;

	for (p = curthread->t_procp; p != NULL; p = p->p_parent) {
		if ((uint64_t)p->p_pid == pid)
			return 1;
		if (p == &p0)
			break;
	}
	return pid == 0;
}

bool
kern_user_regs(isa_regs_t *regs)
{
	klwp_t *lwp = ttolwp(curthread);

	if (lwp == NULL || ill_in_intr() || lwp->lwp_regs == NULL)
		return false;
	ill_md_regs(lwptoregs(lwp), regs);
	return true;
}

void
dtrace_port_raise(int sig)
{
	kthread_t *t = curthread;

	if (ill_in_intr() || ttolwp(t) == NULL || t->t_dtrace_sig != 0)
		return;
	t->t_dtrace_sig = (uint8_t)sig;
	t->t_sig_check = 1;
	aston(t);
}

void
dtrace_port_stop(void)
{
	kthread_t *t = curthread;

	if (ill_in_intr() || ttolwp(t) == NULL)
		return;
	t->t_dtrace_stop = 1;
	t->t_sig_check = 1;
	aston(t);
}

void
dtrace_port_breakpoint(void)
{
	debug_enter("dtrace: breakpoint action");
}

void
dtrace_port_panic(const char *msg)
{
	panic("dtrace: %s", msg);
}
