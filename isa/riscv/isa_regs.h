/*
 * isa/riscv/isa_regs.h: register numbering of isa_regs_t on RISC-V (RV64).
 *
 * x0..x31 by number (x0 always reads 0), then pc: the uregs[] numbering
 * of DTrace for riscv (see regs.c).
 */
#ifndef DTRACE_ISA_RISCV_REGS_H
#define DTRACE_ISA_RISCV_REGS_H

#define ISA_REG_ZERO 0
#define ISA_REG_RA 1
#define ISA_REG_SPREG 2
#define ISA_REG_S0 8 /* frame pointer */
#define ISA_REG_A0 10
#define ISA_REG_A1 11
#define ISA_REG_PCREG 32
#define ISA_NREGS 33

#define ISA_REG_PC ISA_REG_PCREG
#define ISA_REG_SP ISA_REG_SPREG
#define ISA_REG_FP ISA_REG_S0
/* The two result registers of the nofault primitives: a port's fault
 * handler stores the address and its fault code there before resuming at
 * isa_nofault_pad. */
#define ISA_REG_RET0 ISA_REG_A0
#define ISA_REG_RET1 ISA_REG_A1

/*
 * Frame records (isa/frame_walk.c): s0 holds the stack pointer at function
 * entry; the return address is saved just below it (s0 - 8) and the
 * caller's s0 below that (s0 - 16).  A leaf that saves no ra breaks this
 * for its own frame only.
 */
#define ISA_FRAME_RA_OFF (-8)
#define ISA_FRAME_FP_OFF (-16)
#define ISA_FRAME_FP_MIN 16

#endif
