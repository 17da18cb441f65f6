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
/* At a function's first instruction, its first stack-passed argument is
 * this many bytes above the stack pointer (the link register holds the return address). */
#define ISA_STACK_ARG_OFF 0

/*
 * Call-frame information (isa/cfi_unwind.c), AArch64 DWARF numbering
 * (AADWARF64): x0-x30 = 0-30, sp = 31, pc = 32; the CIEs gcc and clang emit
 * name x30 as the return-address column.  ISA_DWARF_REGS(X) calls
 * X(dwarf, isa_regs_t index) for every DWARF number an isa_regs_t register
 * has; ISA_DWARF_TRACKED(X) calls X(dwarf) for the columns the unwinder
 * keeps rules and values for beyond the first frame: x19-x28, the frame
 * pointer, the link register and sp (literal numbers: the unwinder pastes
 * them into names).  ISA_DWARF_RA_PAC_MASK: the bits a return address
 * signed by pointer authentication (DW_CFA_AARCH64_negate_ra_state) keeps
 * its code in, cleared before use; this assumes user addresses below 2^48.
 * ISA_FRAME_CFA_OFF/EXACT: after a frame-pointer step the caller's sp is at
 * least fp + 16 (the record sits at the bottom of the frame, so the exact
 * value is unknown).
 */
#define ISA_DWARF_NREGS 33
#define ISA_DWARF_SP 31
#define ISA_DWARF_FP 29
#define ISA_DWARF_RA 30
#define ISA_DWARF_REGS(X)                                                                          \
	X(0, 0) X(1, 1) X(2, 2) X(3, 3) X(4, 4) X(5, 5) X(6, 6) X(7, 7) X(8, 8) X(9, 9) X(10, 10)  \
	X(11, 11) X(12, 12) X(13, 13) X(14, 14) X(15, 15) X(16, 16) X(17, 17) X(18, 18)            \
	X(19, 19) X(20, 20) X(21, 21) X(22, 22) X(23, 23) X(24, 24) X(25, 25) X(26, 26)            \
	X(27, 27) X(28, 28) X(29, ISA_REG_X29) X(30, ISA_REG_X30) X(31, ISA_REG_SPREG)             \
	X(32, ISA_REG_PCREG)
#define ISA_DWARF_TRACKED(X)                                                                       \
	X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)
#define ISA_DWARF_RA_PAC_MASK 0xffff000000000000ULL
#define ISA_FRAME_CFA_OFF 16
#define ISA_FRAME_CFA_EXACT 0

#endif
