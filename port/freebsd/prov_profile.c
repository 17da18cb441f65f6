/*
 * port/freebsd/prov_profile.c: the profile provider's FreeBSD half, over
 * callouts (kernel/profile.c owns names, probes and arguments).
 *
 * profile-N arms one callout per CPU, bound to it; tick-N one callout on
 * whichever CPU.  C_DIRECT_EXEC runs the handler from the timer interrupt
 * itself, where curthread->td_intr_frame is the interrupted context: its PC
 * is arg0 when it was the kernel's, arg1 when it was user code's.  Each
 * firing re-arms at an absolute time so the rate does not drift.
 */
#include "freebsd_impl.h"

#include <sys/callout.h>
#include <sys/smp.h>
#include <sys/time.h>
#include <machine/cpu.h>

#include "profile.h"

struct fbsd_prof_cpu {
	struct callout pc_callout;
	kprof_t *pc_kp;
	sbintime_t pc_next;
	int pc_cpu; /* bound CPU, or -1 */
};

static void
fbsd_prof_fire(void *arg)
{
	struct fbsd_prof_cpu *pc = arg;
	struct trapframe *tf = curthread->td_intr_frame;
	uint64_t pc_k = 0, pc_u = 0;
	isa_regs_t regs;

	if (tf != NULL) {
		fbsd_md_regs(tf, &regs);
		if (TRAPF_USERMODE(tf))
			pc_u = isa_regs_pc(&regs);
		else
			pc_k = isa_regs_pc(&regs);
	}
	kprof_fire(pc->pc_kp, curcpu, pc_k, pc_u);
	pc->pc_next += nstosbt(pc->pc_kp->kp_interval);
	callout_reset_sbt_on(&pc->pc_callout, pc->pc_next, 0, fbsd_prof_fire, pc, pc->pc_cpu,
			     C_DIRECT_EXEC | C_ABSOLUTE);
}

static int
fbsd_prof_start(kprof_t *kp)
{
	u_int n = kp->kp_kind == KPROF_PROFILE ? mp_maxid + 1 : 1;
	struct fbsd_prof_cpu *pcs;
	sbintime_t first = sbinuptime() + nstosbt(kp->kp_interval);

	if ((pcs = malloc(n * sizeof(*pcs), M_DTRACE, M_WAITOK | M_ZERO)) == NULL)
		return ENOMEM;
	kp->kp_os = pcs;
	for (u_int i = 0; i < n; i++) {
		struct fbsd_prof_cpu *pc = &pcs[i];

		callout_init(&pc->pc_callout, 1);
		pc->pc_kp = kp;
		pc->pc_next = first;
		pc->pc_cpu = kp->kp_kind == KPROF_PROFILE ? (int)i : -1;
		if (kp->kp_kind == KPROF_PROFILE && CPU_ABSENT(i))
			continue;
		callout_reset_sbt_on(&pc->pc_callout, pc->pc_next, 0, fbsd_prof_fire, pc,
				     pc->pc_cpu, C_DIRECT_EXEC | C_ABSOLUTE);
	}
	return 0;
}

static void
fbsd_prof_stop(kprof_t *kp)
{
	u_int n = kp->kp_kind == KPROF_PROFILE ? mp_maxid + 1 : 1;
	struct fbsd_prof_cpu *pcs = kp->kp_os;

	if (pcs == NULL)
		return;
	for (u_int i = 0; i < n; i++)
		callout_drain(&pcs[i].pc_callout);
	free(pcs, M_DTRACE);
	kp->kp_os = NULL;
}

/* callout handler, then kprof_fire */
static const kprof_ops_t fbsd_prof_ops = {fbsd_prof_start, fbsd_prof_stop, 2};

int
fbsd_profile_init(void)
{
	return kprof_register(&fbsd_prof_ops);
}

int
fbsd_profile_fini(void)
{
	return kprof_unregister();
}
