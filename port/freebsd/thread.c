/*
 * port/freebsd/thread.c: the current thread, stacks, arguments and
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
 * Kernel stacks walk frame pointers from dtrace_probe()'s frame, recorded
 * at probe entry (cpu.c), or from the registers of a breakpoint trap;
 * user stacks walk from the thread's user trapframe (td_frame) reading
 * every frame with dtrace_port_load(DTRACE_AS_USER), so a forged frame
 * pointer cannot make the walk read kernel memory.
 *
 * raise() and stop() are posted: the signal is delivered by a timer within
 * a tick (kern_psignal takes the process lock, which probe context may not).
 */
#include "freebsd_impl.h"

#include <sys/kdb.h>
#include <sys/smp.h>
#include <machine/atomic.h>
#include <sys/signalvar.h>
#include <sys/ucred.h>

#define FBSD_USTACK_MAX 512 /* bound of a user walk */

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

int
dtrace_port_curproc_progenyof(uint64_t pid)
{
	const struct proc *p;

	for (p = curthread->td_proc; p != NULL; p = p->p_pptr) {
		if ((uint64_t)p->p_pid == pid)
			return 1;
		if (p == &proc0 || p->p_pptr == p)
			break;
	}
	return pid == 0;
}

/* --- Kernel stacks -------------------------------------------------------- */

static int
fbsd_kstack(uint64_t *pcs, int max, int aframes)
{
	const struct fbsd_cpu *fc = fbsd_cpu_self();
	const isa_regs_t *rp = fc->fc_trapregs;
	uintptr_t fp;
	int n = 0;

	if (max <= 0)
		return 0;
	if (rp != NULL) {
		/* a breakpoint probe: the probed PC, then its callers */
		if (pcs != NULL)
			pcs[0] = isa_regs_pc(rp);
		return 1 + isa_fp_walk((uintptr_t)isa_regs_fp(rp), pcs != NULL ? pcs + 1 : NULL,
				       max - 1);
	}
	fp = fc->fc_probe_fp;
	if (fp == 0)
		fp = (uintptr_t)__builtin_frame_address(0);
	if ((fp = isa_fp_skip(fp, aframes)) != 0)
		n = isa_fp_walk(fp, pcs, max);
	return n;
}

int
dtrace_port_getpcstack(uint64_t *pcs, int max, int aframes)
{
	int n = fbsd_kstack(pcs, max, aframes);

	for (int i = n; i < max; i++)
		pcs[i] = 0;
	return n;
}

int
dtrace_port_getstackdepth(int aframes)
{
	return fbsd_kstack(NULL, FBSD_USTACK_MAX, aframes);
}

uint64_t
dtrace_port_caller(int aframes)
{
	uint64_t pc = 0;
	const isa_regs_t *rp = fbsd_cpu_self()->fc_trapregs;

	if (rp != NULL)
		return isa_frame_return_address((uintptr_t)isa_regs_fp(rp));
	if (fbsd_kstack(&pc, 1, aframes + 1) != 1)
		return 0;
	return pc;
}

/* --- User stacks and registers -------------------------------------------- */

/* The interrupted user registers, if the thread came from user mode. */
static bool
fbsd_uregs(isa_regs_t *regs)
{
	struct thread *td = curthread;

	if (fbsd_in_intr() || td->td_frame == NULL || (td->td_proc->p_flag & P_SYSTEM) != 0)
		return false;
	fbsd_md_regs(td->td_frame, regs);
	return true;
}

static int
fbsd_ustack(uint64_t *pcs, int max)
{
	isa_regs_t regs;
	uintptr_t fp, fault;
	uint64_t ra, next;
	int n = 0;

	if (max <= 0 || !fbsd_uregs(&regs))
		return 0;
	if (pcs != NULL)
		pcs[n] = isa_regs_pc(&regs);
	n++;
	fp = (uintptr_t)isa_regs_fp(&regs);
	while (n < max && fp >= ISA_FRAME_FP_MIN && (fp & 7) == 0) {
		if (dtrace_port_load(DTRACE_AS_USER, fp + ISA_FRAME_RA_OFF, 8, &ra, &fault) != 0 ||
		    dtrace_port_load(DTRACE_AS_USER, fp + ISA_FRAME_FP_OFF, 8, &next, &fault) != 0 ||
		    ra == 0)
			break;
		if (pcs != NULL)
			pcs[n] = ra;
		n++;
		if (next <= fp)
			break;
		fp = (uintptr_t)next;
	}
	return n;
}

int
dtrace_port_getustack(uint64_t *pcs, int max)
{
	int n;

	if (max <= 0)
		return 0;
	pcs[0] = fbsd_in_intr() ? 0 : (uint64_t)curthread->td_proc->p_pid;
	n = fbsd_ustack(pcs + 1, max - 1);
	for (int i = n + 1; i < max; i++)
		pcs[i] = 0;
	return n;
}

int
dtrace_port_getustackdepth(void)
{
	return fbsd_ustack(NULL, FBSD_USTACK_MAX);
}

uint64_t
dtrace_port_ucaller(void)
{
	uint64_t pcs[2] = {0, 0};

	return fbsd_ustack(pcs, 2) == 2 ? pcs[1] : 0;
}

uint64_t
dtrace_port_getreg(unsigned reg, bool *ok)
{
	isa_regs_t regs;

	if (!fbsd_uregs(&regs)) {
		*ok = false;
		return 0;
	}
	return isa_uregs_get(&regs, reg, ok);
}

/* Arguments beyond those the provider passed: from a breakpoint's registers
 * (the probed function's argument registers), else unknown. */
uint64_t
dtrace_port_getarg(int n, int aframes)
{
	const isa_regs_t *rp = fbsd_cpu_self()->fc_trapregs;

	(void)aframes;
	if (rp == NULL || n < 0 || (unsigned)n >= isa_narg_regs)
		return 0;
	return rp->r[isa_arg_regs[n]];
}

/* --- Destructive actions ---------------------------------------------------- */

static struct callout fbsd_post_callout;

static void
fbsd_post(int sig)
{
	struct fbsd_cpu *fc = fbsd_cpu_self();

	if (fbsd_in_intr())
		return;
	/* one pending signal per CPU, as DTrace keeps one per thread */
	fc->fc_post_sig = sig;
	atomic_store_rel_int((volatile u_int *)&fc->fc_post_pid, (u_int)curthread->td_proc->p_pid);
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
dtrace_port_chill(uint64_t ns)
{
	uint64_t end = dtrace_port_gethrtime() + ns;

	while (dtrace_port_gethrtime() < end)
		cpu_spinwait();
}

void
dtrace_port_breakpoint(void)
{
	kdb_enter(KDB_WHY_DTRACE, "breakpoint action");
}

void
dtrace_port_panic(const char *msg)
{
	panic("dtrace: %s", msg);
}

/* Deliver what probes posted: the pid is taken with one atomic swap, after
 * the signal the probe stored before it. */
static void
fbsd_post_deliver(void *arg)
{
	(void)arg;
	for (u_int cpu = 0; cpu <= mp_maxid; cpu++) {
		struct fbsd_cpu *fc = &fbsd_cpus[cpu];
		struct proc *p;
		pid_t pid;
		int sig;

		if (fc->fc_post_pid == 0)
			continue;
		pid = (pid_t)atomic_readandclear_int((volatile u_int *)&fc->fc_post_pid);
		sig = fc->fc_post_sig;
		if (pid != 0 && (p = pfind(pid)) != NULL) {
			kern_psignal(p, sig);
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

void
fbsd_post_fini(void)
{
	callout_drain(&fbsd_post_callout);
}
