/*
 * port/netbsd/md_aarch64_trap.c: trap glue for NetBSD 7.99 on aarch64.
 *
 * There is none to hook.  The aarch64 kernel of 7.99 (evbarm64, an early
 * port) defines neither dtrace_trap_func nor dtrace_invop_jump_addr (only
 * amd64's trap.c and amd64_trap.S do; sys/dtrace_bsd.h merely declares the
 * first), so a module referring to them would not load.  Without a fault
 * hook nofault.c refuses every D-supplied load and stack walks stop at once
 * (dtnb_fault_ready false): tracing works, dereferencing does not, and
 * nothing can panic.  A current NetBSD aarch64 kernel has both hooks in
 * arch/aarch64/aarch64/trap.c; see docs/porting.md.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/lwp.h>
#include <sys/proc.h>
#include <machine/frame.h>
#include <machine/vmparam.h>

#include "netbsd_impl.h"

bool dtnb_fault_ready;

bool
dtnb_user_regs(isa_regs_t *regs)
{
	struct lwp *l = curlwp;
	const struct trapframe *tf = l->l_md.md_utf;

	if (l->l_proc == &proc0 || tf == NULL)
		return false;
	for (int i = 0; i < 31; i++)
		regs->r[ISA_REG_X0 + i] = tf->tf_regs.r_reg[i];
	regs->r[ISA_REG_SPREG] = tf->tf_regs.r_sp;
	regs->r[ISA_REG_PCREG] = tf->tf_regs.r_pc;
	regs->r[ISA_REG_PSTATE] = tf->tf_regs.r_spsr;
	return true;
}

bool
dtnb_space_ok(int space, uintptr_t addr, size_t size)
{
	if (space == DTRACE_AS_USER)
		return addr + size <= VM_MAXUSER_ADDRESS;
	return addr >= VM_MIN_KERNEL_ADDRESS;
}

int
dtnb_trap_install(void)
{
	return 0;
}

void
dtnb_trap_uninstall(void)
{
}
