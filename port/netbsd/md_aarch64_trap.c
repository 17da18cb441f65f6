/*
 * port/netbsd/md_aarch64_trap.c: trap glue for NetBSD 7.99 on aarch64.
 *
 * There is none to hook.  The aarch64 kernel of 7.99 (evbarm64, an early
 * port) defines neither dtrace_trap_func nor dtrace_invop_jump_addr (only
 * amd64's trap.c and amd64_trap.S do; sys/dtrace_bsd.h merely declares the
 * first), so a module referring to them would not load.  So on this kernel
 * a fault in a nofault primitive is not caught: user loads are refused
 * (kern_user_limit() is 0, kernel/nofault.c checks it first), but a D
 * program that dereferences a bad kernel address would take the kernel
 * down.  A current NetBSD aarch64 kernel has both hooks in
 * arch/aarch64/aarch64/trap.c; see docs/porting.md.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/cpu.h>
#include <sys/lwp.h>
#include <sys/proc.h>
#include <machine/frame.h>

#include "netbsd_impl.h"

bool
kern_user_regs(isa_regs_t *regs)
{
	struct lwp *l = curlwp;
	const struct trapframe *tf = l->l_md.md_utf;

	if (cpu_intr_p() || l->l_proc == &proc0 || tf == NULL)
		return false;
	for (int i = 0; i < 31; i++)
		regs->r[ISA_REG_X0 + i] = tf->tf_regs.r_reg[i];
	regs->r[ISA_REG_SPREG] = tf->tf_regs.r_sp;
	regs->r[ISA_REG_PCREG] = tf->tf_regs.r_pc;
	regs->r[ISA_REG_PSTATE] = tf->tf_regs.r_spsr;
	return true;
}

uintptr_t
kern_user_limit(void)
{
	return 0; /* no fault hook: no user access (see above) */
}

const bool dtnb_md_breakpoints = false; /* no breakpoint hook in 7.99 (above) */
const size_t dtnb_md_bp_gap = 0;

int
dtnb_trap_install(void)
{
	return 0;
}

int
dtnb_trap_uninstall(void)
{
	return 0;
}
