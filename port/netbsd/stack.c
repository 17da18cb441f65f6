/*
 * port/netbsd/stack.c: stacks, arguments and registers (port.h §8).
 *
 * Kernel stacks.  During a breakpoint trap the trap glue publishes the
 * interrupted registers (dc_regs): the stack is the interrupted PC, then
 * the callers by frame pointer.  Otherwise the probe was called (sdt,
 * syscall, profile, BEGIN): dtrace_port_probe_enter() recorded the frame
 * of dtrace_probe (dc_probe_fp), so the walk starts at the function that
 * fired the probe and skips the provider's `aframes`.
 *
 * User stacks come from the user registers the kernel saved when the
 * thread entered it (dtnb_user_regs, per build); none in an interrupt.
 *
 * Every frame is read through the ISA's nofault loads with this CPU's
 * nofault flag up, so a bad frame pointer ends the walk; where the kernel
 * gives no fault hook (dtnb_fault_ready false) there is no walk at all.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/cpu.h>
#include <sys/lwp.h>
#include <sys/proc.h>

#include "netbsd_impl.h"

#define STACK_DEPTH_MAX 512

/* isa_fp_walk/isa_fp_skip with faults caught: fp 0 walks nothing. */
static int
dtnb_walk(uintptr_t fp, int skip, uint64_t *pcs, int max)
{
	dtnb_cpu_t *dc = dtnb_curcpu();
	int n = 0;

	if (!dtnb_fault_ready || fp == 0 || max <= 0)
		return 0;
	dc->dc_nfaddr = 0;
	dc->dc_nofault = 1;
	if (skip > 0)
		fp = isa_fp_skip(fp, skip);
	if (fp != 0)
		n = isa_fp_walk(fp, pcs, max);
	dc->dc_nofault = 0;
	return n;
}

static int
dtnb_walk_regs(const isa_regs_t *rp, uint64_t *pcs, int max)
{
	if (max <= 0)
		return 0;
	if (pcs != NULL)
		pcs[0] = isa_regs_pc(rp);
	return 1 + dtnb_walk((uintptr_t)isa_regs_fp(rp), 0, pcs != NULL ? pcs + 1 : NULL, max - 1);
}

static int
dtnb_kstack(uint64_t *pcs, int max, int aframes)
{
	dtnb_cpu_t *dc = dtnb_curcpu();

	if (dc->dc_regs != NULL)
		return dtnb_walk_regs(dc->dc_regs, pcs, max);
	return dtnb_walk(dc->dc_probe_fp, aframes, pcs, max);
}

static bool
dtnb_ustack_regs(isa_regs_t *r)
{
	return !cpu_intr_p() && dtnb_user_regs(r);
}

int
dtrace_port_getpcstack(uint64_t *pcs, int max, int aframes)
{
	int n = dtnb_kstack(pcs, max, aframes);

	for (int i = n; i < max; i++)
		pcs[i] = 0;
	return n;
}

int
dtrace_port_getstackdepth(int aframes)
{
	return dtnb_kstack(NULL, STACK_DEPTH_MAX, aframes);
}

int
dtrace_port_getustack(uint64_t *pcs, int max)
{
	isa_regs_t r;
	int n = 0;

	if (max <= 0)
		return 0;
	pcs[0] = dtrace_port_curthread_value(DTRACE_THR_PID);
	if (dtnb_ustack_regs(&r))
		n = dtnb_walk_regs(&r, pcs + 1, max - 1);
	for (int i = n + 1; i < max; i++)
		pcs[i] = 0;
	return n;
}

int
dtrace_port_getustackdepth(void)
{
	isa_regs_t r;

	return dtnb_ustack_regs(&r) ? dtnb_walk_regs(&r, NULL, STACK_DEPTH_MAX) : 0;
}

uint64_t
dtrace_port_getarg(int n, int aframes)
{
	const isa_regs_t *rp = dtnb_curcpu()->dc_regs;

	(void)aframes;
	/* Only a trapped context has the probed function's registers. */
	if (rp == NULL || n < 0 || (unsigned)n >= isa_narg_regs)
		return 0;
	return rp->r[isa_arg_regs[n]];
}

uint64_t
dtrace_port_getreg(unsigned reg, bool *ok)
{
	isa_regs_t r;

	if (!dtnb_ustack_regs(&r)) {
		*ok = false;
		return 0;
	}
	return isa_uregs_get(&r, reg, ok);
}

uint64_t
dtrace_port_caller(int aframes)
{
	uint64_t pcs[2] = {0, 0};

	/* The caller of the function the probe fired in: the second frame. */
	return dtnb_kstack(pcs, 2, aframes) == 2 ? pcs[1] : 0;
}

uint64_t
dtrace_port_ucaller(void)
{
	uint64_t pcs[3] = {0, 0, 0};

	return dtrace_port_getustack(pcs, 3) >= 2 ? pcs[2] : 0;
}
