/*
 * isa/aarch64/isa_regs.h: register numbering of isa_regs_t on AArch64.
 *
 * x0..x30, then sp, pc and pstate: the order of the architecture's user
 * register file (and of Linux's user_pt_regs), which is also the uregs[]
 * numbering of DTrace for arm64 (see regs.c).
 */
#ifndef DTRACE_ISA_AARCH64_REGS_H
#define DTRACE_ISA_AARCH64_REGS_H

#define ISA_REG_X0 0
#define ISA_REG_X29 29 /* frame pointer */
#define ISA_REG_X30 30 /* link register */
#define ISA_REG_SPREG 31
#define ISA_REG_PCREG 32
#define ISA_REG_PSTATE 33
#define ISA_NREGS 34

#define ISA_REG_PC ISA_REG_PCREG
#define ISA_REG_SP ISA_REG_SPREG
#define ISA_REG_FP ISA_REG_X29
#define ISA_REG_LR ISA_REG_X30
/* The two result registers of the nofault primitives: a port's fault
 * handler stores the address and its fault code there before resuming at
 * isa_nofault_pad. */
#define ISA_REG_RET0 0
#define ISA_REG_RET1 1

/*
 * Frame records (isa/frame_walk.c), AAPCS64: x29 points at the pair
 * {caller's x29, return address (x30)}.
 */
#define ISA_FRAME_RA_OFF 8
#define ISA_FRAME_FP_OFF 0
#define ISA_FRAME_FP_MIN 1

#endif
