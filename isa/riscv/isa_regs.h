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
/* At a function's first instruction, its first stack-passed argument is
 * this many bytes above the stack pointer (ra holds the return address). */
#define ISA_STACK_ARG_OFF 0

/*
 * Call-frame information (isa/cfi_unwind.c), RISC-V psABI DWARF
 * numbering: x0-x31 = 0-31 (the pc has no number); the return-address
 * column is ra (1).  ISA_DWARF_REGS(X) calls X(dwarf, isa_regs_t index)
 * for every DWARF number an isa_regs_t register has; ISA_DWARF_TRACKED(X)
 * calls X(dwarf) for the columns the unwinder keeps rules and values for
 * beyond the first frame: ra, sp, s0-s11 (literal numbers: the unwinder
 * pastes them into names).  ISA_DWARF_RA_PAC_MASK: no pointer
 * authentication.  ISA_FRAME_CFA_OFF/EXACT: s0 is the caller's sp.
 */
#define ISA_DWARF_NREGS 32
#define ISA_DWARF_SP 2
#define ISA_DWARF_FP 8
#define ISA_DWARF_RA 1
#define ISA_DWARF_REGS(X)                                                                          \
	X(0, 0) X(1, 1) X(2, 2) X(3, 3) X(4, 4) X(5, 5) X(6, 6) X(7, 7) X(8, 8) X(9, 9) X(10, 10)  \
	X(11, 11) X(12, 12) X(13, 13) X(14, 14) X(15, 15) X(16, 16) X(17, 17) X(18, 18)            \
	X(19, 19) X(20, 20) X(21, 21) X(22, 22) X(23, 23) X(24, 24) X(25, 25) X(26, 26)            \
	X(27, 27) X(28, 28) X(29, 29) X(30, 30) X(31, 31)
#define ISA_DWARF_TRACKED(X)                                                                       \
	X(1) X(2) X(8) X(9) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27)
#define ISA_DWARF_RA_PAC_MASK 0
#define ISA_FRAME_CFA_OFF 0
#define ISA_FRAME_CFA_EXACT 1

#endif
