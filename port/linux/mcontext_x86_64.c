/*
 * port/linux/mcontext_x86_64.c: Linux's x86_64 signal frame as isa_regs_t.
 *
 * The one place that knows both the Linux mcontext layout (REG_* of
 * <sys/ucontext.h>, glibc's names) and the ISA's register numbering.
 * Chosen by CMake for DTRACE_ISA=x86_64.  Probe context: yes.
 */
#define _GNU_SOURCE
#include <string.h>
#include <ucontext.h>

#include "linux_impl.h"

/* isa register -> index in uc_mcontext.gregs, -1 if Linux has none. */
static const signed char greg_of[ISA_NREGS] = {
	[ISA_REG_R15] = REG_R15,     [ISA_REG_R14] = REG_R14, [ISA_REG_R13] = REG_R13,
	[ISA_REG_R12] = REG_R12,     [ISA_REG_R11] = REG_R11, [ISA_REG_R10] = REG_R10,
	[ISA_REG_R9] = REG_R9,	     [ISA_REG_R8] = REG_R8,   [ISA_REG_RDI] = REG_RDI,
	[ISA_REG_RSI] = REG_RSI,     [ISA_REG_RBP] = REG_RBP, [ISA_REG_RBX] = REG_RBX,
	[ISA_REG_RDX] = REG_RDX,     [ISA_REG_RCX] = REG_RCX, [ISA_REG_RAX] = REG_RAX,
	[ISA_REG_TRAPNO] = REG_TRAPNO, [ISA_REG_ERR] = REG_ERR, [ISA_REG_RIP] = REG_RIP,
	[ISA_REG_CS] = -1,	     [ISA_REG_RFL] = REG_EFL, [ISA_REG_RSP] = REG_RSP,
	[ISA_REG_SS] = -1,	     [ISA_REG_FS] = -1,	      [ISA_REG_GS] = -1,
	[ISA_REG_ES] = -1,	     [ISA_REG_DS] = -1,	      [ISA_REG_FSBASE] = -1,
	[ISA_REG_GSBASE] = -1,
};

void
linux_mcontext_to_regs(const ucontext_t *uc, isa_regs_t *regs)
{
	const greg_t *g = uc->uc_mcontext.gregs;
	uint64_t csgsfs = (uint64_t)g[REG_CSGSFS];
	int i;

	for (i = 0; i < ISA_NREGS; i++)
		regs->r[i] = greg_of[i] >= 0 ? (uint64_t)g[(int)greg_of[i]] : 0;
	/* REG_CSGSFS packs cs, gs, fs and ss in 16-bit fields. */
	regs->r[ISA_REG_CS] = csgsfs & 0xffff;
	regs->r[ISA_REG_GS] = (csgsfs >> 16) & 0xffff;
	regs->r[ISA_REG_FS] = (csgsfs >> 32) & 0xffff;
	regs->r[ISA_REG_SS] = (csgsfs >> 48) & 0xffff;
}

uintptr_t
linux_mcontext_pc(const ucontext_t *uc)
{
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
}

void
linux_mcontext_set_pc(ucontext_t *uc, uintptr_t pc)
{
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)pc;
}

void
linux_mcontext_nofault_resume(ucontext_t *uc, uintptr_t addr, uint64_t code)
{
	uc->uc_mcontext.gregs[REG_RAX] = (greg_t)addr;
	uc->uc_mcontext.gregs[REG_RDX] = (greg_t)code;
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)isa_nofault_pad;
}

void
linux_regs_to_mcontext(const isa_regs_t *regs, ucontext_t *uc)
{
	greg_t *g = uc->uc_mcontext.gregs;
	int i;

	/* General registers, PC, SP and flags; segment state is left alone. */
	for (i = 0; i < ISA_NREGS; i++)
		if (greg_of[i] >= 0 && i != ISA_REG_TRAPNO && i != ISA_REG_ERR)
			g[(int)greg_of[i]] = (greg_t)regs->r[i];
}
