/*
 * port/illumos/md_x86_64.c: the amd64 pieces of the illumos backend.
 *
 * Interrupts are masked with pushf/cli and put back with popf, as the
 * kernel's dtrace_interrupt_disable does (declared only in <sys/dtrace.h>).
 * gethrtime reads the TSC (cpu.c scales it).  struct regs maps onto
 * isa_regs_t, which uses the same register set.  The #UD handler calls
 * dtrace_invop with `stack` pointing at a copy of the interrupted stack's
 * top word, pushed just below the struct regs it saved.
 */
#include "illumos_impl.h"

#include <sys/privregs.h>

uintptr_t
ill_md_intr_disable(void)
{
	uintptr_t flags;

	__asm__ __volatile__("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

void
ill_md_intr_restore(uintptr_t flags)
{
	__asm__ __volatile__("pushq %0; popfq" : : "r"(flags) : "memory", "cc");
}

uint64_t
ill_md_counter(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

void
ill_md_regs(const struct regs *rp, isa_regs_t *regs)
{
	memset(regs, 0, sizeof(*regs));
	regs->r[ISA_REG_R15] = (uint64_t)rp->r_r15;
	regs->r[ISA_REG_R14] = (uint64_t)rp->r_r14;
	regs->r[ISA_REG_R13] = (uint64_t)rp->r_r13;
	regs->r[ISA_REG_R12] = (uint64_t)rp->r_r12;
	regs->r[ISA_REG_R11] = (uint64_t)rp->r_r11;
	regs->r[ISA_REG_R10] = (uint64_t)rp->r_r10;
	regs->r[ISA_REG_R9] = (uint64_t)rp->r_r9;
	regs->r[ISA_REG_R8] = (uint64_t)rp->r_r8;
	regs->r[ISA_REG_RDI] = (uint64_t)rp->r_rdi;
	regs->r[ISA_REG_RSI] = (uint64_t)rp->r_rsi;
	regs->r[ISA_REG_RBP] = (uint64_t)rp->r_rbp;
	regs->r[ISA_REG_RBX] = (uint64_t)rp->r_rbx;
	regs->r[ISA_REG_RDX] = (uint64_t)rp->r_rdx;
	regs->r[ISA_REG_RCX] = (uint64_t)rp->r_rcx;
	regs->r[ISA_REG_RAX] = (uint64_t)rp->r_rax;
	regs->r[ISA_REG_TRAPNO] = (uint64_t)rp->r_trapno;
	regs->r[ISA_REG_ERR] = (uint64_t)rp->r_err;
	regs->r[ISA_REG_RIP] = (uint64_t)rp->r_rip;
	regs->r[ISA_REG_CS] = (uint64_t)rp->r_cs;
	regs->r[ISA_REG_RFL] = (uint64_t)rp->r_rfl;
	regs->r[ISA_REG_RSP] = (uint64_t)rp->r_rsp;
	regs->r[ISA_REG_SS] = (uint64_t)rp->r_ss;
	regs->r[ISA_REG_FS] = (uint64_t)rp->r_fs;
	regs->r[ISA_REG_GS] = (uint64_t)rp->r_gs;
	regs->r[ISA_REG_ES] = (uint64_t)rp->r_es;
	regs->r[ISA_REG_DS] = (uint64_t)rp->r_ds;
}

struct regs *
ill_md_invop_regs(uintptr_t *stack)
{
	return (struct regs *)(void *)(stack + 1);
}
