/*
 * isa/x86_64/insn_decode.c: decoding x86_64 instructions for instruction
 * probes, and preparing each probed instruction (probe context: no).
 *
 * x86 encodings are too irregular to decode by hand with confidence, so
 * this file leans on Zydis (Debian's libzydis-dev) and is built into its
 * own library, dtrace_isa_decode, which only user-space consumers of the
 * engine link; a kernel links dtrace_isa alone and receives prepared
 * isa_probe_insn_t values from user space or a build-time table.
 *
 * Three jobs:
 *   - isa_insn_decode: length, control-flow class and direct target;
 *   - isa_func_sites: a linear sweep of a function, its instruction
 *     boundaries and the sites DTrace's pid provider takes as returns;
 *   - isa_probe_prepare / isa_probe_tramp: decide for one instruction
 *     whether insn_step.c emulates it (pi_op, pi_data: insn_ops.h) or runs
 *     a copy out of line, and build that copy.
 *
 * Out-of-line copies run at another address, so an instruction whose
 * meaning depends on its own address cannot be copied as is.  Relative
 * branches, calls and returns are therefore always emulated.  Any other
 * instruction with a RIP-relative operand is rewritten to address the same
 * bytes through a scratch register it does not otherwise use: mod 00 r/m
 * 101 (disp32(%rip)) becomes mod 10 r/m scratch (disp32(%scratch)), same
 * length, same displacement; the stepper loads the scratch register with
 * the address of the next instruction, which is what %rip would have held,
 * and a closing int3 lets isa_probe_step_done() restore it.
 */
#include <string.h>

#include <Zydis/Zydis.h>

#include "isa.h"
#include "insn_ops.h"

typedef struct x86_decoded {
	ZydisDecodedInstruction in;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
} x86_decoded_t;

static bool
x86_decode(const uint8_t *code, size_t avail, x86_decoded_t *d)
{
	ZydisDecoder dec;

	if (code == NULL || avail == 0)
		return false;
	if (ZYAN_FAILED(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)))
		return false;
	return ZYAN_SUCCESS(ZydisDecoderDecodeFull(&dec, code, avail, &d->in, d->ops));
}

/* Zydis's 64-bit general registers (RAX..R15 in encoding order) as
 * isa_regs_t indices; X86_NOREG for anything else. */
static const uint8_t gpr_isa[16] = {
    ISA_REG_RAX, ISA_REG_RCX, ISA_REG_RDX, ISA_REG_RBX, ISA_REG_RSP, ISA_REG_RBP,
    ISA_REG_RSI, ISA_REG_RDI, ISA_REG_R8,  ISA_REG_R9,  ISA_REG_R10, ISA_REG_R11,
    ISA_REG_R12, ISA_REG_R13, ISA_REG_R14, ISA_REG_R15,
};

static unsigned
gpr64(ZydisRegister r)
{
	if (r >= ZYDIS_REGISTER_RAX && r <= ZYDIS_REGISTER_R15)
		return gpr_isa[r - ZYDIS_REGISTER_RAX];
	return X86_NOREG;
}

static bool
op_is_gpr64(const ZydisDecodedOperand *op)
{
	return op->type == ZYDIS_OPERAND_TYPE_REGISTER && gpr64(op->reg.value) != X86_NOREG;
}

/* The RIP-relative memory operand, if any (x86 has at most one). */
static const ZydisDecodedOperand *
rip_operand(const x86_decoded_t *d)
{
	unsigned i;

	for (i = 0; i < d->in.operand_count; i++) {
		const ZydisDecodedOperand *op = &d->ops[i];

		if (op->type == ZYDIS_OPERAND_TYPE_MEMORY &&
		    (op->mem.base == ZYDIS_REGISTER_RIP || op->mem.base == ZYDIS_REGISTER_EIP))
			return op;
	}
	return NULL;
}

/* The direct (relative) target of a branch, or false. */
static bool
direct_target(const x86_decoded_t *d, uintptr_t pc, uint64_t *target)
{
	const ZydisDecodedOperand *op = &d->ops[0];
	ZyanU64 addr;

	if (d->in.operand_count_visible < 1 || op->type != ZYDIS_OPERAND_TYPE_IMMEDIATE ||
	    !op->imm.is_relative)
		return false;
	if (ZYAN_FAILED(ZydisCalcAbsoluteAddress(&d->in, op, pc, &addr)))
		return false;
	*target = addr;
	return true;
}

static bool
is_near_ret(const x86_decoded_t *d)
{
	return d->in.mnemonic == ZYDIS_MNEMONIC_RET &&
	       d->in.meta.branch_type != ZYDIS_BRANCH_TYPE_FAR;
}

/* jcc proper: 70..7f, or 0f 80..8f; the condition is the low nibble of
 * the opcode in both (not loop*, jrcxz or xbegin). */
static bool
is_jcc(const x86_decoded_t *d)
{
	const ZydisDecodedInstruction *in = &d->in;

	return (in->opcode_map == ZYDIS_OPCODE_MAP_DEFAULT && (in->opcode & 0xf0) == 0x70) ||
	       (in->opcode_map == ZYDIS_OPCODE_MAP_0F && (in->opcode & 0xf0) == 0x80);
}

static bool
is_trap(ZydisMnemonic m)
{
	switch (m) {
	case ZYDIS_MNEMONIC_INT3:
	case ZYDIS_MNEMONIC_INT:
	case ZYDIS_MNEMONIC_INT1:
	case ZYDIS_MNEMONIC_INTO:
	case ZYDIS_MNEMONIC_UD0:
	case ZYDIS_MNEMONIC_UD1:
	case ZYDIS_MNEMONIC_UD2:
	case ZYDIS_MNEMONIC_HLT:
	case ZYDIS_MNEMONIC_SYSCALL:
	case ZYDIS_MNEMONIC_SYSENTER:
	case ZYDIS_MNEMONIC_SYSEXIT:
	case ZYDIS_MNEMONIC_SYSRET:
		return true;
	default:
		return false;
	}
}

static uint8_t
insn_flags(const x86_decoded_t *d, uintptr_t pc, uint64_t *target)
{
	uint8_t f = 0;

	*target = 0;
	if (rip_operand(d) != NULL)
		f |= ISA_INSN_PCREL;
	if (is_trap(d->in.mnemonic))
		f |= ISA_INSN_TRAP;

	switch (d->in.meta.category) {
	case ZYDIS_CATEGORY_RET:
		/* Far returns and iret leave through a selector: a jump to an
		 * address from memory, not a return of this function. */
		if (is_near_ret(d))
			f |= ISA_INSN_RET;
		else
			f |= ISA_INSN_JUMP | ISA_INSN_INDIRECT;
		break;
	case ZYDIS_CATEGORY_UNCOND_BR:
		f |= ISA_INSN_JUMP;
		if (!direct_target(d, pc, target))
			f |= ISA_INSN_INDIRECT;
		break;
	case ZYDIS_CATEGORY_COND_BR:
		f |= ISA_INSN_COND;
		if (!direct_target(d, pc, target))
			f |= ISA_INSN_INDIRECT;
		break;
	case ZYDIS_CATEGORY_CALL:
		f |= ISA_INSN_CALL;
		if (!direct_target(d, pc, target))
			f |= ISA_INSN_INDIRECT;
		break;
	default:
		/* xbegin's abort address is a relative branch target. */
		if (d->in.mnemonic == ZYDIS_MNEMONIC_XBEGIN) {
			f |= ISA_INSN_COND;
			if (!direct_target(d, pc, target))
				f |= ISA_INSN_INDIRECT;
		}
		break;
	}
	return f;
}

int
isa_insn_decode(const uint8_t *code, size_t avail, uintptr_t pc, isa_insn_t *out)
{
	x86_decoded_t d;

	if (!x86_decode(code, avail, &d))
		return -1;
	out->ii_len = d.in.length;
	out->ii_flags = insn_flags(&d, pc, &out->ii_target);
	return 0;
}

/* ------------------------------------------------------------------------
 * Function sites
 * ------------------------------------------------------------------------
 * DTrace's pid provider on x86 (illumos libdtrace, i386/dt_isadep.c) sweeps
 * a function linearly and takes as return sites: ret, rep ret, ret imm16,
 * rep ret imm16, and the jmp and jcc (rel8/rel32) whose target lies outside
 * the function, which are tail calls.  An indirect jmp is not a return
 * site: it marks the function as possibly holding a jump table, and then
 * only a ret right after "leave" or after "mov %rbp,%rsp; pop %rbp" counts,
 * because a return found elsewhere might be table data misread as code.
 * We follow those rules, in terms of what Zydis decodes (so prefixes the
 * byte patterns did not foresee still count), with the 64-bit encodings of
 * the epilogue.  Unlike illumos we still report every instruction boundary
 * of such a function: on x86_64 the compilers keep jump tables in .rodata,
 * and a sweep that decodes cleanly to the end is our evidence.  A sweep that
 * does not decode to the end reports nothing at all.
 */
static bool
is_indirect_jmp(const x86_decoded_t *d)
{
	return d->in.mnemonic == ZYDIS_MNEMONIC_JMP &&
	       d->in.meta.branch_type != ZYDIS_BRANCH_TYPE_FAR &&
	       d->ops[0].type != ZYDIS_OPERAND_TYPE_IMMEDIATE;
}

static bool
is_leave(const x86_decoded_t *d)
{
	return d->in.mnemonic == ZYDIS_MNEMONIC_LEAVE;
}

static bool
is_mov_rbp_rsp(const x86_decoded_t *d)
{
	return d->in.mnemonic == ZYDIS_MNEMONIC_MOV && d->in.operand_width == 64 &&
	       d->ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER &&
	       d->ops[0].reg.value == ZYDIS_REGISTER_RSP &&
	       d->ops[1].type == ZYDIS_OPERAND_TYPE_REGISTER &&
	       d->ops[1].reg.value == ZYDIS_REGISTER_RBP;
}

static bool
is_pop_rbp(const x86_decoded_t *d)
{
	return d->in.mnemonic == ZYDIS_MNEMONIC_POP && d->in.operand_width == 64 &&
	       d->ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER &&
	       d->ops[0].reg.value == ZYDIS_REGISTER_RBP;
}

/* Is a jmp/jcc a tail call: is its direct target outside the function? */
static bool
leaves_function(const x86_decoded_t *d, uintptr_t pc, uintptr_t base, size_t size)
{
	uint64_t target;

	if (!(d->in.mnemonic == ZYDIS_MNEMONIC_JMP || is_jcc(d)))
		return false;
	if (!direct_target(d, pc, &target))
		return false;
	return target < base || target - base >= size;
}

int
isa_func_sites(const uint8_t *code, size_t size, uintptr_t base, isa_site_fn_t cb, void *arg)
{
	bool jump_table = false; /* an indirect jmp: restricted return sites */
	x86_decoded_t d;
	/* The two instructions before the current one, for the epilogues. */
	bool prev_leave = false, prev_pop_rbp = false, prev2_mov = false, prev_mov = false;
	size_t off;
	int rc;

	/* Pass 1: the whole function must decode, instruction after
	 * instruction, ending exactly at its end. */
	for (off = 0; off < size; off += d.in.length) {
		if (!x86_decode(code + off, size - off, &d))
			return -1;
		if (is_indirect_jmp(&d))
			jump_table = true;
	}

	/* Pass 2: report. */
	for (off = 0; off < size; off += d.in.length) {
		bool ret_site = false;

		(void)x86_decode(code + off, size - off, &d);
		if ((rc = cb(off, ISA_SITE_INSN, arg)) != 0)
			return rc;
		if (!jump_table)
			ret_site = is_near_ret(&d) || leaves_function(&d, base + off, base, size);
		else if (is_near_ret(&d))
			ret_site = prev_leave || (prev_pop_rbp && prev2_mov);
		if (ret_site && (rc = cb(off, ISA_SITE_RETURN, arg)) != 0)
			return rc;

		prev2_mov = prev_mov;
		prev_mov = is_mov_rbp_rsp(&d);
		prev_leave = is_leave(&d);
		prev_pop_rbp = is_pop_rbp(&d);
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Preparing a probed instruction
 * ------------------------------------------------------------------------
 * Emulated (pi_tramp_len 0): nop and endbr64; push %r64; mov %r64,%r64;
 * add/sub $imm,%r64; ret and ret imm16; jmp, jcc, loop*, jrcxz and call
 * with a relative target; jmp and call through a 64-bit register or a
 * 64-bit word in memory (RIP-relative included) without a segment override.
 * These are the instructions a function entry, return or branch site
 * holds, and the ones whose copy could not run elsewhere.
 *
 * Refused: int3 (another debugger's breakpoint, or ours: the original is
 * lost), int $3, int1, into, ud0/ud1/ud2 and hlt (they exist to trap, and a
 * copy would trap at the wrong address), sysenter/sysexit/sysret, far
 * branches and iret, xbegin (its abort address is relative and the int3
 * aborts the transaction anyway), relative branches with an operand-size
 * prefix (rel16 on AMD, ignored by Intel: the length depends on the vendor)
 * or a 32-bit address size, a RIP-relative operand reached through a
 * 32-bit address size, RIP-relative indirect jmp/call with a segment override, and
 * a RIP-relative instruction for which no scratch register is free.
 *
 * Everything else runs out of line.  syscall and int $n do too: the kernel
 * returns to the next instruction of the copy, which jumps back.  The one
 * visible difference is %rcx after syscall (the kernel's copy of the
 * return address): it holds the copy's address, not the original's, which
 * the system call ABI declares clobbered anyway.
 */
static const ZydisRegister scratch_candidates[] = {
    ZYDIS_REGISTER_RAX, ZYDIS_REGISTER_RCX, ZYDIS_REGISTER_RDX,
    ZYDIS_REGISTER_RBX, ZYDIS_REGISTER_RSI, ZYDIS_REGISTER_RDI,
};
#define NSCRATCH (sizeof(scratch_candidates) / sizeof(scratch_candidates[0]))

static ZydisRegister
enclosing(ZydisRegister r)
{
	if (r == ZYDIS_REGISTER_NONE)
		return r;
	return ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, r);
}

/* A general register among the first eight that no operand (visible,
 * implicit or hidden) names; ZYDIS_REGISTER_NONE if none is free. */
static ZydisRegister
pick_scratch(const x86_decoded_t *d)
{
	bool used[NSCRATCH] = {false};
	unsigned i, k;

	for (i = 0; i < d->in.operand_count; i++) {
		const ZydisDecodedOperand *op = &d->ops[i];
		ZydisRegister r[3] = {ZYDIS_REGISTER_NONE, ZYDIS_REGISTER_NONE,
		                      ZYDIS_REGISTER_NONE};

		if (op->type == ZYDIS_OPERAND_TYPE_REGISTER) {
			r[0] = enclosing(op->reg.value);
		} else if (op->type == ZYDIS_OPERAND_TYPE_MEMORY) {
			r[0] = enclosing(op->mem.base);
			r[1] = enclosing(op->mem.index);
			r[2] = enclosing(op->mem.segment);
		}
		for (k = 0; k < NSCRATCH; k++)
			if (r[0] == scratch_candidates[k] || r[1] == scratch_candidates[k] ||
			    r[2] == scratch_candidates[k])
				used[k] = true;
	}
	for (k = 0; k < NSCRATCH; k++)
		if (!used[k])
			return scratch_candidates[k];
	return ZYDIS_REGISTER_NONE;
}

/*
 * Rewrite the RIP-relative operand of d (bytes code[0..len)) to address
 * disp32(%scratch): ModRM mod 00 -> 10 and r/m 101 -> scratch, and clear the
 * extension bit of r/m in REX/VEX/XOP/EVEX so the scratch is one of the
 * first eight registers.  Re-decodes the result to prove it is the same
 * instruction with the new base.
 */
static bool
rewrite_rip(const x86_decoded_t *d, const uint8_t *code, ZydisRegister scratch, uint8_t *out)
{
	const ZydisDecodedInstruction *in = &d->in;
	unsigned mo = in->raw.modrm.offset;
	unsigned low = (unsigned)(scratch - ZYDIS_REGISTER_RAX);
	const ZydisDecodedOperand *op;
	x86_decoded_t chk;
	unsigned po;

	memcpy(out, code, in->length);
	if (!(in->attributes & ZYDIS_ATTRIB_HAS_MODRM) || in->raw.modrm.mod != 0 ||
	    in->raw.modrm.rm != 5 || in->raw.disp.size != 32 || mo + 5 > in->length)
		return false;
	out[mo] = (uint8_t)(0x80 | (out[mo] & 0x38) | low);

	if (in->attributes & ZYDIS_ATTRIB_HAS_REX) {
		out[in->raw.rex.offset] &= (uint8_t)~0x01;
	} else if (in->attributes &
	           (ZYDIS_ATTRIB_HAS_VEX | ZYDIS_ATTRIB_HAS_XOP | ZYDIS_ATTRIB_HAS_EVEX)) {
		/* VEX3 (c4), XOP (8f) and EVEX (62) carry ~B in bit 5 of their
		 * second byte; two-byte VEX (c5) has no B and means r/m < 8. */
		po = (in->attributes & ZYDIS_ATTRIB_HAS_VEX)   ? in->raw.vex.offset
		     : (in->attributes & ZYDIS_ATTRIB_HAS_XOP) ? in->raw.xop.offset
		                                               : in->raw.evex.offset;
		if (po + 1 >= in->length)
			return false;
		if (out[po] != 0xc5)
			out[po + 1] |= 0x20;
	}

	if (!x86_decode(out, in->length, &chk) || chk.in.length != in->length ||
	    chk.in.mnemonic != in->mnemonic || chk.in.operand_count != in->operand_count)
		return false;
	op = NULL;
	for (unsigned i = 0; i < chk.in.operand_count; i++)
		if (chk.ops[i].type == ZYDIS_OPERAND_TYPE_MEMORY && chk.ops[i].mem.base == scratch)
			op = &chk.ops[i];
	return op != NULL && op->mem.index == ZYDIS_REGISTER_NONE &&
	       op->mem.disp.value == rip_operand(d)->mem.disp.value;
}

/* Operands of an indirect jmp/call we can compute in probe context. */
static bool
prepare_indirect(const x86_decoded_t *d, uintptr_t pc, isa_probe_insn_t *pi)
{
	const ZydisDecodedOperand *op = &d->ops[0];
	uint64_t *v = pi->pi_data;

	if (d->in.meta.branch_type == ZYDIS_BRANCH_TYPE_FAR || d->in.operand_width != 64)
		return false;
	if (op_is_gpr64(op)) {
		v[X86_IND_DISP] = 0;
		v[X86_IND_BASE] = gpr64(op->reg.value);
		v[X86_IND_INDEX] = X86_NOREG;
		v[X86_IND_MODE] = 0;
		return true;
	}
	if (op->type != ZYDIS_OPERAND_TYPE_MEMORY || op->mem.type != ZYDIS_MEMOP_TYPE_MEM ||
	    d->in.address_width != 64)
		return false;
	/* %fs/%gs need the segment base, which the register image lacks. */
	if (op->mem.segment == ZYDIS_REGISTER_FS || op->mem.segment == ZYDIS_REGISTER_GS)
		return false;
	if (op->mem.base == ZYDIS_REGISTER_RIP) {
		v[X86_IND_DISP] = (uint64_t)pc + d->in.length + (uint64_t)op->mem.disp.value;
		v[X86_IND_BASE] = X86_NOREG;
		v[X86_IND_INDEX] = X86_NOREG;
		v[X86_IND_MODE] = X86_IND_MEM | 1;
		return true;
	}
	if ((op->mem.base != ZYDIS_REGISTER_NONE && gpr64(op->mem.base) == X86_NOREG) ||
	    (op->mem.index != ZYDIS_REGISTER_NONE && gpr64(op->mem.index) == X86_NOREG))
		return false;
	v[X86_IND_DISP] = (uint64_t)op->mem.disp.value;
	v[X86_IND_BASE] = op->mem.base == ZYDIS_REGISTER_NONE ? X86_NOREG : gpr64(op->mem.base);
	v[X86_IND_INDEX] = op->mem.index == ZYDIS_REGISTER_NONE ? X86_NOREG : gpr64(op->mem.index);
	v[X86_IND_MODE] = X86_IND_MEM | (op->mem.scale ? op->mem.scale : 1);
	return true;
}

static int
prepare_ool(isa_probe_insn_t *pi)
{
	pi->pi_op = X86_OP_OOL;
	pi->pi_tramp_len = (uint16_t)(pi->pi_len + X86_JMP_ABS_LEN);
	pi->pi_tramp_bp = 0;
	return 0;
}

/* Control transfers: emulated, copied when the copy would go to the same
 * place, refused otherwise.  Returns 0/-1, or 1 if d is no branch. */
static int
prepare_branch(const x86_decoded_t *d, uintptr_t pc, isa_probe_insn_t *pi)
{
	const ZydisDecodedInstruction *in = &d->in;
	uint64_t target;
	bool direct = direct_target(d, pc, &target);

	/* An operand-size prefix makes a relative branch rel16 on AMD and is
	 * ignored on Intel: its length and target depend on the vendor. */
	if (direct && (in->attributes & ZYDIS_ATTRIB_HAS_OPERANDSIZE))
		return -1;

	switch (in->meta.category) {
	case ZYDIS_CATEGORY_RET:
		if (!is_near_ret(d))
			return -1; /* far ret, iret */
		if (in->operand_width != 64)
			return prepare_ool(pi); /* a copy pops what it pops */
		pi->pi_op = X86_OP_RET;
		pi->pi_data[0] =
		    in->operand_count_visible > 0 && d->ops[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE
		        ? (d->ops[0].imm.value.u & 0xffff)
		        : 0;
		return 0;

	case ZYDIS_CATEGORY_UNCOND_BR:
	case ZYDIS_CATEGORY_CALL:
		if (in->meta.branch_type == ZYDIS_BRANCH_TYPE_FAR)
			return -1;
		if (direct) {
			if (in->operand_width != 64)
				return -1;
			pi->pi_op = in->mnemonic == ZYDIS_MNEMONIC_CALL ? X86_OP_CALL : X86_OP_JMP;
			pi->pi_data[0] = target;
			return 0;
		}
		if (prepare_indirect(d, pc, pi)) {
			pi->pi_op =
			    in->mnemonic == ZYDIS_MNEMONIC_CALL ? X86_OP_CALL_IND : X86_OP_JMP_IND;
			return 0;
		}
		/* A copied jmp leaves the copy for the right target unless
		 * it is RIP-relative; a copied call would push the copy's
		 * address as the return address. */
		memset(pi->pi_data, 0, sizeof(pi->pi_data));
		if (in->mnemonic == ZYDIS_MNEMONIC_JMP && rip_operand(d) == NULL)
			return prepare_ool(pi);
		return -1;

	case ZYDIS_CATEGORY_COND_BR:
		if (!direct || in->operand_width != 64 || in->address_width != 64)
			return -1;
		pi->pi_data[0] = target;
		switch (in->mnemonic) {
		case ZYDIS_MNEMONIC_LOOPNE:
		case ZYDIS_MNEMONIC_LOOPE:
		case ZYDIS_MNEMONIC_LOOP:
		case ZYDIS_MNEMONIC_JRCXZ:
			pi->pi_op = X86_OP_LOOP;
			pi->pi_data[1] = in->mnemonic == ZYDIS_MNEMONIC_LOOPNE  ? X86_LOOP_LOOPNE
			                 : in->mnemonic == ZYDIS_MNEMONIC_LOOPE ? X86_LOOP_LOOPE
			                 : in->mnemonic == ZYDIS_MNEMONIC_LOOP  ? X86_LOOP_LOOP
			                                                        : X86_LOOP_JRCXZ;
			return 0;
		default:
			if (!is_jcc(d))
				return -1;
			pi->pi_op = X86_OP_JCC;
			pi->pi_data[1] = in->opcode & 0x0f;
			return 0;
		}

	default:
		if (in->mnemonic == ZYDIS_MNEMONIC_XBEGIN)
			return -1;
		return 1;
	}
}

/* The cheap non-branch instructions insn_step.c emulates: true if d is
 * one and pi is filled. */
static bool
prepare_simple(const x86_decoded_t *d, isa_probe_insn_t *pi)
{
	const ZydisDecodedInstruction *in = &d->in;
	const ZydisDecodedOperand *o = d->ops;

	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_NOP:
	case ZYDIS_MNEMONIC_ENDBR64:
		pi->pi_op = X86_OP_NEXT;
		return true;
	case ZYDIS_MNEMONIC_PUSH:
		if (in->operand_width != 64 || !op_is_gpr64(&o[0]))
			return false;
		pi->pi_op = X86_OP_PUSH_REG;
		pi->pi_data[0] = gpr64(o[0].reg.value);
		return true;
	case ZYDIS_MNEMONIC_MOV:
		if (in->operand_width != 64 || !op_is_gpr64(&o[0]) || !op_is_gpr64(&o[1]))
			return false;
		pi->pi_op = X86_OP_MOV_REG;
		pi->pi_data[0] = gpr64(o[0].reg.value);
		pi->pi_data[1] = gpr64(o[1].reg.value);
		return true;
	case ZYDIS_MNEMONIC_ADD:
	case ZYDIS_MNEMONIC_SUB:
		if (in->operand_width != 64 || !op_is_gpr64(&o[0]) ||
		    o[1].type != ZYDIS_OPERAND_TYPE_IMMEDIATE)
			return false;
		pi->pi_op = X86_OP_ADDSUB_IMM;
		pi->pi_data[0] = gpr64(o[0].reg.value);
		pi->pi_data[1] = (uint64_t)o[1].imm.value.s;
		pi->pi_data[2] = in->mnemonic == ZYDIS_MNEMONIC_SUB;
		return true;
	default:
		return false;
	}
}

/*
 * A load of a RIP-relative word into a general register, or the lea of a
 * RIP-relative address: the operand's address is known now, so the
 * stepper does the whole instruction (a load, or a constant) instead of
 * running a copy through a scratch register, which costs a second trap.
 * 8- and 16-bit destinations (which keep the register's upper bits) and
 * %fs/%gs overrides are left to the copy.  True if d is one and pi is
 * filled.
 */
static bool
prepare_rip_simple(const x86_decoded_t *d, uintptr_t pc, isa_probe_insn_t *pi)
{
	const ZydisDecodedInstruction *in = &d->in;
	const ZydisDecodedOperand *dst = &d->ops[0], *src = &d->ops[1];
	uint64_t addr;
	unsigned reg;

	if ((in->mnemonic != ZYDIS_MNEMONIC_MOV && in->mnemonic != ZYDIS_MNEMONIC_LEA) ||
	    in->operand_count_visible != 2 || in->address_width != 64 ||
	    (in->operand_width != 64 && in->operand_width != 32) ||
	    dst->type != ZYDIS_OPERAND_TYPE_REGISTER || src->type != ZYDIS_OPERAND_TYPE_MEMORY ||
	    src->mem.base != ZYDIS_REGISTER_RIP || src->mem.index != ZYDIS_REGISTER_NONE ||
	    src->mem.segment == ZYDIS_REGISTER_FS || src->mem.segment == ZYDIS_REGISTER_GS)
		return false;
	reg = gpr64(ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, dst->reg.value));
	if (reg == X86_NOREG)
		return false;
	addr = (uint64_t)pc + in->length + (uint64_t)src->mem.disp.value;
	pi->pi_data[0] = reg;
	if (in->mnemonic == ZYDIS_MNEMONIC_LEA) {
		pi->pi_op = X86_OP_SET_REG;
		pi->pi_data[1] = in->operand_width == 32 ? (uint32_t)addr : addr;
	} else {
		pi->pi_op = X86_OP_LOAD_RIP;
		pi->pi_data[1] = addr;
		pi->pi_data[2] = in->operand_width / 8;
	}
	return true;
}

int
isa_probe_prepare(const uint8_t *code, size_t avail, uintptr_t pc, isa_probe_insn_t *pi)
{
	const ZydisDecodedOperand *rip;
	x86_decoded_t d;
	ZydisRegister scratch;
	uint8_t rw[ISA_INSN_MAXLEN];
	int rc;

	memset(pi, 0, sizeof(*pi));
	if (!x86_decode(code, avail, &d) || d.in.length > 15)
		return -1;
	memcpy(pi->pi_orig, code, d.in.length);
	pi->pi_len = d.in.length;

	switch (d.in.mnemonic) {
	case ZYDIS_MNEMONIC_INT3:
	case ZYDIS_MNEMONIC_INT1:
	case ZYDIS_MNEMONIC_INTO:
	case ZYDIS_MNEMONIC_UD0:
	case ZYDIS_MNEMONIC_UD1:
	case ZYDIS_MNEMONIC_UD2:
	case ZYDIS_MNEMONIC_HLT:
	case ZYDIS_MNEMONIC_SYSENTER:
	case ZYDIS_MNEMONIC_SYSEXIT:
	case ZYDIS_MNEMONIC_SYSRET:
		goto refuse;
	case ZYDIS_MNEMONIC_INT:
		if (d.ops[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && d.ops[0].imm.value.u == 3)
			goto refuse;
		break;
	default:
		break;
	}

	if ((rc = prepare_branch(&d, pc, pi)) <= 0) {
		if (rc < 0)
			goto refuse;
		return 0;
	}
	if (prepare_simple(&d, pi) || prepare_rip_simple(&d, pc, pi))
		return 0;

	if ((rip = rip_operand(&d)) == NULL)
		return prepare_ool(pi);
	if (rip->mem.base != ZYDIS_REGISTER_RIP || d.in.address_width != 64)
		goto refuse;
	if ((scratch = pick_scratch(&d)) == ZYDIS_REGISTER_NONE ||
	    !rewrite_rip(&d, code, scratch, rw))
		goto refuse;
	pi->pi_op = X86_OP_OOL_RIP;
	pi->pi_data[0] = gpr64(scratch);
	memcpy(&pi->pi_data[1], rw, d.in.length);
	pi->pi_tramp_len = (uint16_t)(d.in.length + 1);
	pi->pi_tramp_bp = (uint16_t)(d.in.length + 1);
	return 0;

refuse:
	memset(pi, 0, sizeof(*pi));
	return -1;
}

size_t
isa_probe_tramp(const isa_probe_insn_t *pi, uintptr_t pc, uintptr_t tramp, uint8_t *buf,
                size_t bufsz)
{
	uint64_t back = (uint64_t)pc + pi->pi_len;
	size_t n = pi->pi_len;

	(void)tramp; /* both forms are position-independent */
	if (pi->pi_tramp_len == 0 || bufsz < pi->pi_tramp_len)
		return 0;
	switch (pi->pi_op) {
	case X86_OP_OOL:
		/* the copy, then jmp *0(%rip) and the address to go back to */
		memcpy(buf, pi->pi_orig, n);
		buf[n++] = 0xff;
		buf[n++] = 0x25;
		memset(buf + n, 0, 4);
		n += 4;
		for (int i = 0; i < 8; i++)
			buf[n++] = (uint8_t)(back >> (8 * i));
		return n;
	case X86_OP_OOL_RIP:
		/* the rewritten copy, then the int3 of pi_tramp_bp */
		memcpy(buf, &pi->pi_data[1], n);
		buf[n++] = X86_INT3;
		return n;
	default:
		return 0;
	}
}
