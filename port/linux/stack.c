/*
 * port/linux/stack.c: stacks, arguments and registers (port.h section 8).
 *
 * In the Linux host the "kernel" and the user stack are the same: the
 * traced process's.  When a signal handler fires the probe (profile, a
 * breakpoint) it publishes the interrupted registers in linux_trap_regs;
 * stacks then start at the interrupted PC and walk from its frame
 * pointer, and uregs[]/arguments come from those registers.  Otherwise
 * the probe was called directly (BEGIN on the consumer's thread, a
 * provider's function call): dtrace_port_probe_enter() recorded the frame
 * pointer of the core function that entered probe context (dtrace_probe),
 * so the walk starts with the return address into the function that fired
 * the probe, however deep the core's own calls go, and skips the provider's
 * `aframes`.  Without that record (a call outside probe context) the walk
 * starts at the caller of the port function.
 * Walks use frame pointers (the ISA module), every load nofault; this file
 * is built without sibling calls so each function here keeps its frame.
 * Probe context: yes.
 */
#include "linux_impl.h"

#define STACK_DEPTH_MAX 512 /* bound for depth-only walks */

LINUX_TLS inst_thread_t linux_inst_thread;

/*
 * Walk the current thread's stack for a directly called probe, dropping
 * `skip` frames after the first (see above).  The skipped frames are
 * stepped over in place rather than collected and dropped, so the walk
 * needs no buffer on what may be a small signal stack.  noinline: its own
 * frame is the anchor when there is no record.
 */
static int __attribute__((noinline))
walk_direct(uint64_t *pcs, int max, int skip)
{
	uintptr_t fp = linux_probe_fp;

	if (fp == 0) {
		/* the first frame is the port function's return address */
		fp = (uintptr_t)__builtin_frame_address(0);
		skip++;
	}
	if (max <= 0 || (fp = isa_fp_skip(fp, skip)) == 0)
		return 0;
	return isa_fp_walk(fp, pcs, max);
}

/* The interrupted context: its PC, then the callers, by call-frame
 * information where the object has it and by frame pointer elsewhere. */
static int
walk_regs(const isa_regs_t *rp, uint64_t *pcs, int max)
{
	int n;

	if (max <= 0)
		return 0;
	if ((n = linux_unwind_walk(rp, pcs, max)) >= 0)
		return n;
	if (pcs != NULL)
		pcs[0] = isa_regs_pc(rp);
	n = isa_fp_walk((uintptr_t)isa_regs_fp(rp), pcs != NULL ? pcs + 1 : NULL, max - 1);
	return n + 1;
}

/*
 * At an entry or return probe the function has no frame (not yet, or no
 * more).  Where its object has no call-frame information for it (riscv64
 * gcc 12 emits none for C by default), the frame-pointer walk reads the
 * caller's frame record as the function's own and skips the caller; then
 * the walk starts over from the caller's registers
 * (isa_regs_entry_caller).  Where the first walk found the caller, it
 * stands.
 */
static int
walk_trap(const isa_regs_t *rp, uint64_t *pcs, int max)
{
	uint64_t two[2];
	isa_regs_t caller;

	if (max >= 2 && linux_inst_thread.it_noframe != 0) {
		caller = *rp;
		if (isa_regs_entry_caller(&caller) &&
		    (walk_regs(rp, two, 2) < 2 || two[1] != isa_regs_pc(&caller))) {
			if (pcs != NULL)
				pcs[0] = isa_regs_pc(rp);
			return walk_regs(&caller, pcs != NULL ? pcs + 1 : NULL, max - 1) + 1;
		}
	}
	return walk_regs(rp, pcs, max);
}

int
dtrace_port_getpcstack(uint64_t *pcs, int max, int aframes)
{
	const isa_regs_t *rp = linux_trap_regs;
	int n, i;

	if (rp != NULL)
		n = walk_trap(rp, pcs, max);
	else
		n = walk_direct(pcs, max, aframes);
	for (i = n; i < max; i++)
		pcs[i] = 0;
	return n;
}

int
dtrace_port_getustack(uint64_t *pcs, int max)
{
	const isa_regs_t *rp = linux_trap_regs;
	int n, i;

	if (max <= 0)
		return 0;
	pcs[0] = (uint64_t)linux_self_pid();
	if (rp != NULL)
		n = walk_trap(rp, pcs + 1, max - 1);
	else
		n = walk_direct(pcs + 1, max - 1, 0);
	for (i = n + 1; i < max; i++)
		pcs[i] = 0;
	return n;
}

int
dtrace_port_getstackdepth(int aframes)
{
	const isa_regs_t *rp = linux_trap_regs;

	if (rp != NULL)
		return walk_trap(rp, NULL, STACK_DEPTH_MAX);
	return walk_direct(NULL, STACK_DEPTH_MAX, aframes);
}

int
dtrace_port_getustackdepth(void)
{
	const isa_regs_t *rp = linux_trap_regs;

	if (rp != NULL)
		return walk_trap(rp, NULL, STACK_DEPTH_MAX);
	return walk_direct(NULL, STACK_DEPTH_MAX, 0);
}

uint64_t
dtrace_port_getarg(int n, int aframes)
{
	const isa_regs_t *rp = linux_trap_regs;

	isa_nofault_result_t r;

	(void)aframes;
	/* Only an interrupted context has the probed function's registers.
	 * Past the argument registers, arguments are on the stack where the
	 * ABI puts them at the function's entry, as DTrace's pid provider
	 * reads them (at another instruction they are whatever is there). */
	if (rp == NULL || n < 0)
		return 0;
	/* A statically defined probe's arguments are where its recipe said
	 * (inst_args.c), evaluated as it fired. */
	if (linux_inst_thread.it_args != NULL)
		return (uint32_t)n < linux_inst_thread.it_nargs ? linux_inst_thread.it_args[n] : 0;
	if ((unsigned)n < isa_narg_regs)
		return rp->r[isa_arg_regs[n]];
	r = isa_nofault_load64(isa_regs_sp(rp) + ISA_STACK_ARG_OFF +
			       (uintptr_t)((unsigned)n - isa_narg_regs) * sizeof(uint64_t));
	return r.fault != 0 ? 0 : r.value;
}

uint64_t
dtrace_port_getreg(unsigned reg, bool *ok)
{
	const isa_regs_t *rp = linux_trap_regs;

	if (rp == NULL) {
		*ok = false;
		return 0;
	}
	return isa_uregs_get(rp, reg, ok);
}

uint64_t
dtrace_port_caller(int aframes)
{
	const isa_regs_t *rp = linux_trap_regs;
	uint64_t pc = 0;

	if (rp != NULL)
		return isa_frame_return_address((uintptr_t)isa_regs_fp(rp));
	if (walk_direct(&pc, 1, aframes + 1) == 1)
		return pc;
	return 0;
}

uint64_t
dtrace_port_ucaller(void)
{
	const isa_regs_t *rp = linux_trap_regs;
	uint64_t pc = 0;

	/* DTrace's ucaller is the second PC of ustack(): the caller of the
	 * function the probe fired in.  For a directly called probe the
	 * process's stack is the user stack, as for ustack(). */
	uint64_t two[2];

	if (rp != NULL)
		return walk_trap(rp, two, 2) == 2 ? two[1] : 0;
	if (walk_direct(&pc, 1, 1) == 1)
		return pc;
	return 0;
}
