/*
 * port/netbsd/thread.c: the current thread (port.h §7).
 *
 * Thread facts come from curlwp and its process.  In a hard interrupt
 * (cpu_intr_p()) the facts are those of no thread, as port.h asks: pid,
 * tid and ids 0, the name of proc0, and a thread key with bit 61 set so
 * that `self->` variables of the interrupted LWP stay apart.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/cpu.h>
#include <sys/kauth.h>
#include <sys/lwp.h>
#include <sys/proc.h>
#include <sys/time.h>
#include <sys/timevar.h>

#include "netbsd_impl.h"

/* Run time of l: what it accumulated at switches plus the current run. */
static uint64_t
dtnb_vtime(struct lwp *l)
{
	struct bintime now, run = l->l_rtime;
	struct timespec ts;

	if (l->l_stime.sec != 0 || l->l_stime.frac != 0) {
		binuptime(&now);
		bintime_sub(&now, &l->l_stime);
		bintime_add(&run, &now);
	}
	bintime2timespec(&run, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t
dtrace_port_curthread_value(dtrace_thread_fact_t fact)
{
	struct lwp *l = curlwp;
	struct proc *p = l->l_proc;
	bool intr = cpu_intr_p();

	switch (fact) {
	case DTRACE_THR_HWCPU:
		return cpu_index(curcpu());
	case DTRACE_THR_CURTHREAD:
		return (uintptr_t)l;
	case DTRACE_THR_KEY:
		return ((uint64_t)(uintptr_t)l & ((1ULL << 61) - 1)) | (intr ? 1ULL << 61 : 0);
	case DTRACE_THR_ERRNO: /* NetBSD keeps no per-LWP errno */
		return 0;
	default:
		break;
	}
	if (intr)
		return 0;
	switch (fact) {
	case DTRACE_THR_PID:
		return (uint64_t)p->p_pid;
	case DTRACE_THR_TID:
		return (uint64_t)l->l_lid;
	case DTRACE_THR_PPID:
		return p->p_pptr != NULL ? (uint64_t)p->p_pptr->p_pid : 0;
	case DTRACE_THR_UID:
		return l->l_cred != NULL ? kauth_cred_geteuid(l->l_cred) : 0;
	case DTRACE_THR_GID:
		return l->l_cred != NULL ? kauth_cred_getegid(l->l_cred) : 0;
	case DTRACE_THR_VTIME:
		return dtnb_vtime(l);
	default:
		return 0;
	}
}

const char *
dtrace_port_curthread_execname(void)
{
	return cpu_intr_p() ? proc0.p_comm : curproc->p_comm;
}
