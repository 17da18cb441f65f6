/*
 * port/netbsd/cpu.c: probe context and cross-calls (port.h §1).
 *
 * Probe context is the CPU at splhigh(): no interrupt handler, soft
 * interrupt or kernel preemption runs on it until splx(), so nothing else
 * touches its buffers.  NetBSD's own DTrace disables interrupts with
 * pushf/cli; raising the IPL to IPL_HIGH blocks the same handlers (x86
 * defers them in software, aarch64 masks them) through a KPI that also
 * exists in a rump kernel, where a privileged instruction would fault.
 *
 * Also here: the per-CPU facts kernel/kernel_port.h asks for, and the
 * decision every build's fault route makes (dtnb_fault).
 *
 * Cross-calls are xc_broadcast/xc_unicast with xc_wait.  NetBSD runs a
 * low-priority cross-call in a per-CPU kernel thread with interrupts
 * enabled, so the function is wrapped at splhigh to exclude probes on that
 * CPU for its duration.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/cpu.h>
#include <sys/intr.h>
#include <sys/xcall.h>

#include "netbsd_impl.h"

dtnb_cpu_t *dtnb_cpus;
uint32_t dtnb_ncpus;

dtnb_cpu_t *
dtnb_curcpu(void)
{
	return &dtnb_cpus[cpu_index(curcpu())];
}

/* kernel/kernel_port.h: what kernel/stack.c and kernel/nofault.c ask. */
const isa_regs_t *
kern_trap_regs(void)
{
	return dtnb_curcpu()->dc_regs;
}

uintptr_t
kern_probe_fp(void)
{
	return dtnb_curcpu()->dc_probe_fp;
}

/* NetBSD's trap glue resumes a faulting primitive at its landing pad with
 * the result in place, and no processor here guards user access: nothing
 * to do around a primitive. */
uintptr_t
kern_nofault_enter(int space)
{
	(void)space;
	return 0;
}

void
kern_nofault_exit(int space, uintptr_t cookie, isa_nofault_result_t *r)
{
	(void)space;
	(void)cookie;
	(void)r;
}

int
dtnb_fault(uintptr_t pc, uintptr_t *resume)
{
	if (!isa_nofault_contains(pc))
		return 0;
	*resume = (uintptr_t)isa_nofault_pad;
	return DTRACEFLT_BADADDR;
}

bool
dtrace_port_probe_enter(dtrace_cpuid_t *cpu, uintptr_t *cookie_out)
{
	int s = splhigh();
	u_int id = cpu_index(curcpu());
	dtnb_cpu_t *dc;

	/* A CPU attached after the module loaded has no state: a drop. */
	if (id >= dtnb_ncpus || (dc = &dtnb_cpus[id])->dc_inprobe) {
		splx(s);
		return false;
	}
	dc->dc_inprobe = 1;
	/* The frame of our caller, dtrace_probe: stack walks start there. */
	dc->dc_probe_fp = isa_frame_caller_fp((uintptr_t)__builtin_frame_address(0));
	*cpu = id;
	*cookie_out = (uintptr_t)(unsigned)s;
	return true;
}

void
dtrace_port_probe_exit(dtrace_cpuid_t cpu, uintptr_t cookie)
{
	dtnb_cpus[cpu].dc_probe_fp = 0;
	dtnb_cpus[cpu].dc_inprobe = 0;
	splx((int)(unsigned)cookie);
}

uint32_t
dtrace_port_ncpus(void)
{
	return dtnb_ncpus;
}

/* Runs on the target CPU in its cross-call thread. */
static void
dtnb_xcall_here(void *fn, void *arg)
{
	dtnb_cpu_t *dc;
	int s = splhigh();

	dc = dtnb_curcpu();
	/* A probe cannot be open here (it would have blocked), so mark it
	 * as DTrace does, keeping probes out while fn runs. */
	dc->dc_inprobe = 1;
	((dtrace_xcall_fn_t)fn)(arg);
	dc->dc_inprobe = 0;
	splx(s);
}

void
dtrace_port_xcall(dtrace_cpuid_t cpu, dtrace_xcall_fn_t fn, void *arg)
{
	struct cpu_info *ci;
	uint64_t where;

	if (cpu == DTRACE_CPU_ALL) {
		where = xc_broadcast(0, dtnb_xcall_here, (void *)fn, arg);
	} else {
		if (cpu >= dtnb_ncpus || (ci = cpu_lookup(cpu)) == NULL)
			return;
		where = xc_unicast(0, dtnb_xcall_here, (void *)fn, arg, ci);
	}
	xc_wait(where);
}
