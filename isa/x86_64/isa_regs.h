/*
 * isa/x86_64/isa_regs.h: register numbering of isa_regs_t on x86_64.
 *
 * The numbering is the amd64 REG_* order of the illumos/Solaris regset,
 * which DTrace's uregs[] for 64-bit processes is built on: uregs[19 + n]
 * is register n below, and uregs[0..18] are the i386 names mapped onto
 * their 64-bit counterparts (see regs.c).
 */
#ifndef DTRACE_ISA_X86_64_REGS_H
#define DTRACE_ISA_X86_64_REGS_H

#define ISA_REG_R15 0
#define ISA_REG_R14 1
#define ISA_REG_R13 2
#define ISA_REG_R12 3
#define ISA_REG_R11 4
#define ISA_REG_R10 5
#define ISA_REG_R9 6
#define ISA_REG_R8 7
#define ISA_REG_RDI 8
#define ISA_REG_RSI 9
#define ISA_REG_RBP 10
#define ISA_REG_RBX 11
#define ISA_REG_RDX 12
#define ISA_REG_RCX 13
#define ISA_REG_RAX 14
#define ISA_REG_TRAPNO 15
#define ISA_REG_ERR 16
#define ISA_REG_RIP 17
#define ISA_REG_CS 18
#define ISA_REG_RFL 19
#define ISA_REG_RSP 20
#define ISA_REG_SS 21
#define ISA_REG_FS 22
#define ISA_REG_GS 23
#define ISA_REG_ES 24
#define ISA_REG_DS 25
#define ISA_REG_FSBASE 26
#define ISA_REG_GSBASE 27
#define ISA_NREGS 28

#define ISA_REG_PC ISA_REG_RIP
#define ISA_REG_SP ISA_REG_RSP
#define ISA_REG_FP ISA_REG_RBP
/* The two result registers of the nofault primitives: a port's fault
 * handler stores the address and its fault code there before resuming at
 * isa_nofault_pad. */
#define ISA_REG_RET0 ISA_REG_RAX
#define ISA_REG_RET1 ISA_REG_RDX

/*
 * Frame records (isa/frame_walk.c): %rbp points at the caller's saved %rbp,
 * with the return address one word above it.
 */
#define ISA_FRAME_RA_OFF 8
#define ISA_FRAME_FP_OFF 0
#define ISA_FRAME_FP_MIN 1
/* At a function's first instruction, its first stack-passed argument is
 * this many bytes above the stack pointer (the return address a call pushed). */
#define ISA_STACK_ARG_OFF 8

/*
 * Call-frame information (isa/cfi_unwind.c), System V AMD64 psABI DWARF
 * numbering: 0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp,
 * 8-15 r8-r15, 16 the return-address column, which stands for %rip.
 * ISA_DWARF_REGS(X) calls X(dwarf, isa_regs_t index) for every DWARF
 * number an isa_regs_t register has; ISA_DWARF_TRACKED(X) calls X(dwarf)
 * for the columns the unwinder keeps rules and values for beyond the first
 * frame: the callee-saved registers, the stack and frame pointers and the
 * return-address column (literal numbers: the unwinder pastes them into
 * names).  ISA_DWARF_RA_PAC_MASK: bits of a return address that hold a
 * pointer-authentication code when the CFI says it is signed (none here).
 * ISA_FRAME_CFA_OFF: the caller's stack pointer is fp + this after a
 * frame-pointer step; ISA_FRAME_CFA_EXACT says whether that is exact or
 * only a lower bound.
 */
#define ISA_DWARF_NREGS 17
#define ISA_DWARF_SP 7
#define ISA_DWARF_FP 6
#define ISA_DWARF_RA 16
#define ISA_DWARF_REGS(X)                                                                          \
	X(0, ISA_REG_RAX) X(1, ISA_REG_RDX) X(2, ISA_REG_RCX) X(3, ISA_REG_RBX) X(4, ISA_REG_RSI)  \
	X(5, ISA_REG_RDI) X(6, ISA_REG_RBP) X(7, ISA_REG_RSP) X(8, ISA_REG_R8) X(9, ISA_REG_R9)    \
	X(10, ISA_REG_R10) X(11, ISA_REG_R11) X(12, ISA_REG_R12) X(13, ISA_REG_R13)                \
	X(14, ISA_REG_R14) X(15, ISA_REG_R15) X(16, ISA_REG_RIP)
#define ISA_DWARF_TRACKED(X) X(3) X(6) X(7) X(12) X(13) X(14) X(15) X(16)
#define ISA_DWARF_RA_PAC_MASK 0
#define ISA_FRAME_CFA_OFF 16
#define ISA_FRAME_CFA_EXACT 1

#endif
