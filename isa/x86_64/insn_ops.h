/*
 * isa/x86_64/insn_ops.h: how a probed x86_64 instruction is carried out,
 * shared by the preparer (insn_decode.c, outside probe context, with a
 * decoder) and the stepper (insn_step.c, probe context, freestanding).
 *
 * isa_probe_prepare() reduces an instruction to one X86_OP_* in pi_op and
 * the few operands the stepper needs in pi_data[], already resolved where
 * they depend only on the instruction's address (branch targets, the
 * address of a RIP-relative operand), so the stepper never decodes.  The
 * engine stores the isa_probe_insn_t opaquely; only these two files read
 * pi_op and pi_data, and both must agree on this layout.
 *
 * Register operands are isa_regs_t indices (ISA_REG_*).  X86_NOREG marks
 * an absent base or index register.
 */
#ifndef DTRACE_ISA_X86_64_INSN_OPS_H
#define DTRACE_ISA_X86_64_INSN_OPS_H

#define X86_NOREG 0xff

enum x86_op {
	X86_OP_INVALID = 0, /* never prepared: stepping it is refused */
	X86_OP_NEXT,        /* nop, endbr64: only advance the PC */
	X86_OP_PUSH_REG,    /* push %r64; data[0] = reg */
	X86_OP_MOV_REG,     /* mov %src64,%dst64; data[0] = dst, data[1] = src */
	X86_OP_ADDSUB_IMM,  /* add/sub $imm,%r64; data[0] = reg, data[1] = imm
	                     * (sign-extended), data[2] = 1 for sub; sets the
	                     * arithmetic flags as the instruction does */
	X86_OP_RET,         /* ret [imm16]; data[0] = imm16 */
	X86_OP_JMP,         /* jmp rel; data[0] = target */
	X86_OP_CALL,        /* call rel32; data[0] = target */
	X86_OP_JCC,         /* jcc rel; data[0] = target, data[1] = condition (0..15,
	                     * the low nibble of the opcode) */
	X86_OP_LOOP,        /* loop/loope/loopne/jrcxz; data[0] = target,
	                     * data[1] = X86_LOOP_* */
	X86_OP_JMP_IND,     /* jmp *operand; data[0..3] = X86_IND_* */
	X86_OP_CALL_IND,    /* call *operand; data[0..3] = X86_IND_* */
	X86_OP_OOL,         /* run the copy in the trampoline, jump back */
	X86_OP_OOL_RIP,     /* run a copy rewritten to use a scratch register in
	                     * place of %rip; data[0] = scratch reg; data[1],
	                     * data[2] = the rewritten bytes (pi_len of them) */
	X86_OP_OOL_RIPDISP, /* run the copy with its disp32(%rip) rewritten for
	                     * the trampoline's address, jump back (kernels:
	                     * insn_decode_kernel.c); data[0] = the operand's
	                     * absolute address, data[1] = offset of the disp32 */
	X86_OP_LOAD_RIP,    /* mov disp(%rip),%r64 or %r32; data[0] = dst reg,
	                     * data[1] = the operand's address, data[2] = 8, or 4
	                     * for %r32 (zero-extended, as the processor writes a
	                     * 32-bit register) */
	X86_OP_SET_REG,     /* lea disp(%rip),%r64 or %r32: data[0] = dst reg,
	                     * data[1] = the address (cut to 32 bits for %r32) */
};

/* X86_OP_LOOP kinds. */
#define X86_LOOP_LOOPNE 0 /* e0: --rcx != 0 && !ZF */
#define X86_LOOP_LOOPE 1  /* e1: --rcx != 0 && ZF */
#define X86_LOOP_LOOP 2   /* e2: --rcx != 0 */
#define X86_LOOP_JRCXZ 3  /* e3: rcx == 0 */

/*
 * Indirect branch operand: a register (X86_IND_MEM clear in data[3]: the
 * target is data[1]'s value) or memory at data[0] + base + index * scale
 * (data[0] is the absolute address for a RIP-relative operand, which then
 * has neither base nor index).
 */
#define X86_IND_DISP 0  /* data[0]: displacement or absolute address */
#define X86_IND_BASE 1  /* data[1]: base register or X86_NOREG */
#define X86_IND_INDEX 2 /* data[2]: index register or X86_NOREG */
#define X86_IND_MODE 3  /* data[3]: scale (1, 2, 4, 8) | X86_IND_MEM */
#define X86_IND_MEM 0x100

/* Out-of-line return: jmp *0(%rip) followed by the absolute address. */
#define X86_JMP_ABS_LEN 14
#define X86_INT3 0xcc

#endif
