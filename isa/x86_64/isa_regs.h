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

#endif
