/*
 * kernel/stack.c: stacks, arguments and registers (port.h section 8) for
 * every kernel backend, by frame pointer with isa/'s frame layout.
 *
 * Kernel stacks.  A probe that came through a breakpoint trap has the
 * trap's registers (kern_trap_regs): the stack is the probed PC, then its
 * callers.  A probe a provider called has dtrace_probe()'s frame, which the
 * port recorded at probe entry (kern_probe_fp): the walk starts there and
 * steps over the provider's `aframes`.  Arguments past the five a provider
 * passes exist only for trapped probes (the argument registers).
 *
 * User stacks start at the registers the thread entered the kernel with
 * (kern_user_regs) and read every frame with dtrace_port_load(USER), so a
 * forged frame pointer can stop the walk but never make it read kernel
 * memory.
 */
#include "kernel_port.h"

#define KERN_STACK_MAX 512 /* bound of a depth-only walk */

static int
kern_kstack(uint64_t *pcs, int max, int aframes)
{
	const isa_regs_t *rp = kern_trap_regs();
	uintptr_t fp;

	if (max <= 0)
		return 0;
	if (rp != NULL) {
		if (pcs != NULL)
			pcs[0] = isa_regs_pc(rp);
		return 1 + isa_fp_walk((uintptr_t)isa_regs_fp(rp), pcs != NULL ? pcs + 1 : NULL,
				       max - 1);
	}
	if ((fp = kern_probe_fp()) == 0)
		fp = (uintptr_t)__builtin_frame_address(0);
	if ((fp = isa_fp_skip(fp, aframes)) == 0)
		return 0;
	return isa_fp_walk(fp, pcs, max);
}

int
dtrace_port_getpcstack(uint64_t *pcs, int max, int aframes)
{
	int n = kern_kstack(pcs, max, aframes);

	for (int i = n; i < max; i++)
		pcs[i] = 0;
	return n;
}

int
dtrace_port_getstackdepth(int aframes)
{
	return kern_kstack(NULL, KERN_STACK_MAX, aframes);
}

uint64_t
dtrace_port_caller(int aframes)
{
	const isa_regs_t *rp = kern_trap_regs();
	uint64_t pc = 0;

	if (rp != NULL)
		return isa_frame_return_address((uintptr_t)isa_regs_fp(rp));
	return kern_kstack(&pc, 1, aframes + 1) == 1 ? pc : 0;
}

uint64_t
dtrace_port_getarg(int n, int aframes)
{
	const isa_regs_t *rp = kern_trap_regs();

	(void)aframes;
	if (rp == NULL || n < 0 || (unsigned)n >= isa_narg_regs)
		return 0;
	return rp->r[isa_arg_regs[n]];
}

/* The interrupted PC, then each caller's return address. */
static int
kern_ustack(uint64_t *pcs, int max)
{
	isa_regs_t regs;
	uintptr_t fp, fault;
	uint64_t ra, next;
	int n = 0;

	if (max <= 0 || !kern_user_regs(&regs))
		return 0;
	if (pcs != NULL)
		pcs[0] = isa_regs_pc(&regs);
	n = 1;
	fp = (uintptr_t)isa_regs_fp(&regs);
	while (n < max && fp >= ISA_FRAME_FP_MIN && (fp & 7) == 0) {
		if (dtrace_port_load(DTRACE_AS_USER, fp + ISA_FRAME_RA_OFF, 8, &ra, &fault) != 0 ||
		    dtrace_port_load(DTRACE_AS_USER, fp + ISA_FRAME_FP_OFF, 8, &next, &fault) != 0 ||
		    ra == 0)
			break;
		if (pcs != NULL)
			pcs[n] = ra;
		n++;
		if (next <= fp) /* stacks grow down: a caller's frame is above */
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
	pcs[0] = dtrace_port_curthread_value(DTRACE_THR_PID);
	n = kern_ustack(pcs + 1, max - 1);
	for (int i = n + 1; i < max; i++)
		pcs[i] = 0;
	return n;
}

int
dtrace_port_getustackdepth(void)
{
	return kern_ustack(NULL, KERN_STACK_MAX);
}

uint64_t
dtrace_port_ucaller(void)
{
	uint64_t pcs[2] = {0, 0};

	return kern_ustack(pcs, 2) == 2 ? pcs[1] : 0;
}

uint64_t
dtrace_port_getreg(unsigned reg, bool *ok)
{
	isa_regs_t regs;

	if (!kern_user_regs(&regs)) {
		*ok = false;
		return 0;
	}
	return isa_uregs_get(&regs, reg, ok);
}
