/*
 * port/linux/mcontext_aarch64.c: Linux's AArch64 signal frame as
 * isa_regs_t (uc_mcontext: regs[31], sp, pc, pstate).  Chosen by CMake
 * for DTRACE_ISA=aarch64.  Probe context: yes.
 */
#define _GNU_SOURCE
#include <ucontext.h>

#include "linux_impl.h"

void
linux_mcontext_to_regs(const ucontext_t *uc, isa_regs_t *regs)
{
	int i;

	for (i = 0; i < 31; i++)
		regs->r[i] = uc->uc_mcontext.regs[i];
	regs->r[ISA_REG_SPREG] = uc->uc_mcontext.sp;
	regs->r[ISA_REG_PCREG] = uc->uc_mcontext.pc;
	regs->r[ISA_REG_PSTATE] = uc->uc_mcontext.pstate;
}

uintptr_t
linux_mcontext_pc(const ucontext_t *uc)
{
	return (uintptr_t)uc->uc_mcontext.pc;
}

void
linux_mcontext_set_pc(ucontext_t *uc, uintptr_t pc)
{
	uc->uc_mcontext.pc = pc;
}

void
linux_mcontext_nofault_resume(ucontext_t *uc, uintptr_t addr, uint64_t code)
{
	uc->uc_mcontext.regs[ISA_REG_RET0] = addr;
	uc->uc_mcontext.regs[ISA_REG_RET1] = code;
	uc->uc_mcontext.pc = (uintptr_t)isa_nofault_pad;
}

void
linux_regs_to_mcontext(const isa_regs_t *regs, ucontext_t *uc)
{
	int i;

	for (i = 0; i < 31; i++)
		uc->uc_mcontext.regs[i] = regs->r[i];
	uc->uc_mcontext.sp = regs->r[ISA_REG_SPREG];
	uc->uc_mcontext.pc = regs->r[ISA_REG_PCREG];
	uc->uc_mcontext.pstate = regs->r[ISA_REG_PSTATE];
}
