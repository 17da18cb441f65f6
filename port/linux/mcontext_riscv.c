/*
 * port/linux/mcontext_riscv.c: Linux's RISC-V signal frame as isa_regs_t.
 * uc_mcontext.__gregs[0] is the pc and __gregs[1..31] are x1..x31 (the
 * kernel's struct user_regs_struct order).  Chosen by CMake for
 * DTRACE_ISA=riscv.  Probe context: yes.
 */
#define _GNU_SOURCE
#include <ucontext.h>

#include "linux_impl.h"

#define GREG_PC 0 /* glibc's REG_PC */

void
linux_mcontext_to_regs(const ucontext_t *uc, isa_regs_t *regs)
{
	int i;

	regs->r[ISA_REG_ZERO] = 0;
	for (i = 1; i < 32; i++)
		regs->r[i] = uc->uc_mcontext.__gregs[i];
	regs->r[ISA_REG_PCREG] = uc->uc_mcontext.__gregs[GREG_PC];
}

uintptr_t
linux_mcontext_pc(const ucontext_t *uc)
{
	return (uintptr_t)uc->uc_mcontext.__gregs[GREG_PC];
}

void
linux_mcontext_set_pc(ucontext_t *uc, uintptr_t pc)
{
	uc->uc_mcontext.__gregs[GREG_PC] = pc;
}

void
linux_mcontext_nofault_resume(ucontext_t *uc, uintptr_t addr, uint64_t code)
{
	uc->uc_mcontext.__gregs[ISA_REG_RET0] = addr;
	uc->uc_mcontext.__gregs[ISA_REG_RET1] = code;
	uc->uc_mcontext.__gregs[GREG_PC] = (uintptr_t)isa_nofault_pad;
}

void
linux_regs_to_mcontext(const isa_regs_t *regs, ucontext_t *uc)
{
	int i;

	for (i = 1; i < 32; i++)
		uc->uc_mcontext.__gregs[i] = regs->r[i];
	uc->uc_mcontext.__gregs[GREG_PC] = regs->r[ISA_REG_PCREG];
}
