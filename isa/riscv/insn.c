/*
 * isa/riscv/insn.c: instruction probes on RISC-V (RV64GC).
 *
 * Instructions are 32-bit words, or 16-bit halfwords with the C extension
 * (the low two bits say which: 11 is a full-size instruction).  Longer
 * encodings (low five bits 11111) are not decoded.  A small table of major
 * opcodes and an expander of the compressed forms into their full-size
 * meaning are all the decoder there is, so the whole half of isa.h lives
 * here, freestanding, in dtrace_isa (a kernel links it):
 *   - isa_insn_decode: length, control-flow class and direct target;
 *   - isa_func_sites: boundaries and return sites of a function;
 *   - isa_probe_prepare / isa_probe_tramp (probe context: no): reduce an
 *     instruction to one RV_OP_* in pi_op and its operands in pi_data,
 *     resolved against the instruction's address, and write its copy;
 *   - isa_probe_step / isa_probe_step_done (probe context: yes).
 *
 * Emulated: everything that reads the PC (auipc, jal, jalr, beq..bgeu and
 * the compressed c.j, c.jr, c.jalr, c.beqz, c.bnez; c.jal is RV32-only)
 * and the common prologue and epilogue instructions (addi and its
 * compressed forms c.addi, c.addi16sp, c.addi4spn, c.li, c.mv and the nops;
 * ld/sd with c.ldsp, c.sdsp, c.ld, c.sd), so most entry and return probes
 * cost one trap.
 *
 * Out of line: everything else, copied (in its own width) into the
 * trampoline and followed by an ebreak whose trap (pi_tramp_bp)
 * isa_probe_step_done() turns into "resume at pc + len".  No register is
 * free at an arbitrary instruction for an absolute jump back, and jal
 * reaches only +-1 MiB.
 *
 * Refused: ebreak and c.ebreak (another debugger's or ours), lr/sc (the
 * trap between them breaks the reservation, so a probed retry loop would
 * never succeed), SYSTEM instructions other than ecall and the CSR
 * accesses (mret, sret, wfi, sfence.vma, hypervisor loads/stores), custom
 * and reserved opcodes, and instructions longer than 32 bits.
 *
 * Instruction-cache coherence: a trampoline must be visible to the
 * instruction fetch of the thread that runs it.  RISC-V only promises that
 * after a fence.i on the hart that fetches; Linux's riscv_flush_icache
 * (what __builtin___clear_cache calls) covers the calling process's harts.
 * A port that writes trampolines in one process for another (the Linux
 * host's consumer for its agents) must have the traced process flush as
 * well before it first runs a new trampoline.  qemu-user keeps its
 * translations coherent with stores and is unaffected.
 */
#include "isa.h"

enum rv_op {
	RV_OP_INVALID = 0, /* never prepared: stepping it is refused */
	RV_OP_NEXT,	   /* a nop, or a write to x0: only advance the PC */
	RV_OP_JAL,	   /* data[0] = target, data[1] = rd */
	RV_OP_JALR,	   /* data[0] = rs1, data[1] = imm, data[2] = rd */
	RV_OP_BRANCH,	   /* data[0] = target, data[1] = rs1, data[2] = rs2, data[3] = funct3 */
	RV_OP_AUIPC,	   /* data[0] = rd, data[1] = value */
	RV_OP_ADDI,	   /* data[0] = rd, data[1] = rs1, data[2] = imm */
	RV_OP_LD,	   /* data[0] = rd, data[1] = rs1, data[2] = imm */
	RV_OP_SD,	   /* data[0] = rs2, data[1] = rs1, data[2] = imm */
	RV_OP_OOL,	   /* copy + ebreak */
};

#define RV_EBREAK 0x00100073u
#define RV_REG_RA 1
#define RV_REG_SP 2

/* What an instruction is, in terms of the full-size instruction a
 * compressed one stands for. */
enum rv_kind {
	RV_K_INVALID = 0,
	RV_K_OTHER, /* valid, nothing special: out of line */
	RV_K_JAL,
	RV_K_JALR,
	RV_K_BRANCH,
	RV_K_AUIPC,
	RV_K_ADDI,
	RV_K_LD,
	RV_K_SD,
	RV_K_EBREAK,
	RV_K_ECALL,
	RV_K_REFUSE, /* valid, but never probed: lr/sc, privileged SYSTEM */
};

typedef struct rv_insn {
	uint8_t len;
	uint8_t kind;
	uint8_t rd, rs1, rs2, funct3;
	int64_t imm;
} rv_insn_t;

static unsigned
ubits(uint32_t w, unsigned lo, unsigned n)
{
	return (w >> lo) & ((1u << n) - 1);
}

static int64_t
sext(uint64_t v, unsigned n)
{
	return (int64_t)(v << (64 - n)) >> (64 - n);
}

/* ------------------------------------------------------------------------
 * Full-size instructions
 * ------------------------------------------------------------------------
 * Major opcodes (bits 6:2) of RV64GC with V, Zicsr, Zifencei, Zicbom: which
 * funct3 values are allocated (a bit mask) and what kind they are.  Custom
 * and reserved opcodes have no entry: not an instruction we know.
 */
typedef struct rv_major {
	uint8_t funct3_ok;
	uint8_t kind;
} rv_major_t;

static const rv_major_t rv_majors[32] = {
    [0x00] = {0x7f, RV_K_OTHER},	 /* LOAD: lb lh lw ld lbu lhu lwu */
    [0x01] = {0xff, RV_K_OTHER},	 /* LOAD-FP and vector loads */
    [0x03] = {0x07, RV_K_OTHER},	 /* MISC-MEM: fence, fence.i, cbo.* */
    [0x04] = {0xff, RV_K_OTHER},	 /* OP-IMM (addi refined below) */
    [0x05] = {0xff, RV_K_AUIPC},	 /* AUIPC */
    [0x06] = {0xff, RV_K_OTHER},	 /* OP-IMM-32 */
    [0x08] = {0x0f, RV_K_OTHER},	 /* STORE: sb sh sw sd (sd refined) */
    [0x09] = {0xff, RV_K_OTHER},	 /* STORE-FP and vector stores */
    [0x0b] = {0x0c, RV_K_OTHER},	 /* AMO .w/.d (lr/sc refined) */
    [0x0c] = {0xff, RV_K_OTHER},	 /* OP */
    [0x0d] = {0xff, RV_K_OTHER},	 /* LUI */
    [0x0e] = {0xff, RV_K_OTHER},	 /* OP-32 */
    [0x10] = {0xff, RV_K_OTHER},	 /* MADD */
    [0x11] = {0xff, RV_K_OTHER},	 /* MSUB */
    [0x12] = {0xff, RV_K_OTHER},	 /* NMSUB */
    [0x13] = {0xff, RV_K_OTHER},	 /* NMADD */
    [0x14] = {0xff, RV_K_OTHER},	 /* OP-FP */
    [0x15] = {0xff, RV_K_OTHER},	 /* OP-V */
    [0x18] = {0xf3, RV_K_BRANCH},	 /* BRANCH: beq bne blt bge bltu bgeu */
    [0x19] = {0x01, RV_K_JALR},		 /* JALR */
    [0x1b] = {0xff, RV_K_JAL},		 /* JAL */
    [0x1c] = {0xff, RV_K_OTHER},	 /* SYSTEM (refined below) */
};

static bool
rv_decode32(uint32_t w, rv_insn_t *in)
{
	unsigned major = ubits(w, 2, 5), f3 = ubits(w, 12, 3);
	const rv_major_t *m = &rv_majors[major];

	in->len = 4;
	in->rd = (uint8_t)ubits(w, 7, 5);
	in->rs1 = (uint8_t)ubits(w, 15, 5);
	in->rs2 = (uint8_t)ubits(w, 20, 5);
	in->funct3 = (uint8_t)f3;
	in->imm = sext(w >> 20, 12); /* I-type */
	if (m->kind == RV_K_INVALID || !(m->funct3_ok & (1u << f3)))
		return false;
	in->kind = m->kind;

	switch (major) {
	case 0x00: /* ld */
		if (f3 == 3)
			in->kind = RV_K_LD;
		break;
	case 0x04: /* addi */
		if (f3 == 0)
			in->kind = RV_K_ADDI;
		break;
	case 0x05: /* auipc */
		in->imm = sext(w & 0xfffff000u, 32);
		break;
	case 0x08: /* sd */
		in->imm = sext(ubits(w, 25, 7) << 5 | ubits(w, 7, 5), 12);
		if (f3 == 3)
			in->kind = RV_K_SD;
		break;
	case 0x0b: /* lr (00010), sc (00011) */
		if (ubits(w, 27, 5) == 2 || ubits(w, 27, 5) == 3)
			in->kind = RV_K_REFUSE;
		break;
	case 0x18:
		in->imm = sext(ubits(w, 31, 1) << 12 | ubits(w, 7, 1) << 11 | ubits(w, 25, 6) << 5 |
				   ubits(w, 8, 4) << 1,
			       13);
		break;
	case 0x1b:
		in->imm = sext(ubits(w, 31, 1) << 20 | ubits(w, 12, 8) << 12 |
				   ubits(w, 20, 1) << 11 | ubits(w, 21, 10) << 1,
			       21);
		break;
	case 0x1c:
		if (w == RV_EBREAK)
			in->kind = RV_K_EBREAK;
		else if (w == 0x00000073u)
			in->kind = RV_K_ECALL;
		else if (f3 == 0 || f3 == 4)
			in->kind = RV_K_REFUSE; /* xret, wfi, sfence.*, hlv/hsv */
		break;
	default:
		break;
	}
	return true;
}

/* ------------------------------------------------------------------------
 * Compressed instructions (RV64C), as the full-size instruction each
 * stands for.  Only the forms this file treats specially are spelled out;
 * the rest are checked for the reserved encodings and are RV_K_OTHER.
 * ------------------------------------------------------------------------ */
#define CREG(b) ((uint8_t)(8 + ((b) & 7))) /* rd', rs1', rs2' */

static bool
rv_decode16(uint32_t h, rv_insn_t *in)
{
	unsigned op = h & 3, f3 = ubits(h, 13, 3);
	unsigned rd = ubits(h, 7, 5), rs2 = ubits(h, 2, 5);
	int64_t imm6 = sext(ubits(h, 12, 1) << 5 | ubits(h, 2, 5), 6);

	in->len = 2;
	in->kind = RV_K_OTHER;
	in->rd = in->rs1 = in->rs2 = 0;
	in->funct3 = 0;
	in->imm = 0;
	if (h == 0)
		return false; /* defined illegal */

	switch (op << 3 | f3) {
	case 000: /* c.addi4spn: addi rd', sp, nzuimm */
		in->imm = ubits(h, 11, 2) << 4 | ubits(h, 7, 4) << 6 | ubits(h, 6, 1) << 2 |
			  ubits(h, 5, 1) << 3;
		if (in->imm == 0)
			return false;
		in->kind = RV_K_ADDI;
		in->rd = CREG(h >> 2);
		in->rs1 = RV_REG_SP;
		return true;
	case 003: /* c.ld: ld rd', uimm(rs1') */
	case 007: /* c.sd: sd rs2', uimm(rs1') */
		in->imm = ubits(h, 10, 3) << 3 | ubits(h, 5, 2) << 6;
		in->rs1 = CREG(h >> 7);
		if (f3 == 3) {
			in->kind = RV_K_LD;
			in->rd = CREG(h >> 2);
		} else {
			in->kind = RV_K_SD;
			in->rs2 = CREG(h >> 2);
		}
		return true;
	case 001: /* c.fld */
	case 002: /* c.lw */
	case 004: /* Zcb loads/stores */
	case 005: /* c.fsd */
	case 006: /* c.sw */
		return true;

	case 010: /* c.addi (c.nop when rd is x0) */
	case 012: /* c.li: addi rd, x0, imm */
		in->kind = RV_K_ADDI;
		in->rd = (uint8_t)rd;
		in->rs1 = f3 == 0 ? (uint8_t)rd : 0;
		in->imm = imm6;
		return true;
	case 011: /* c.addiw */
		return rd != 0;
	case 013:
		if (rd == RV_REG_SP) { /* c.addi16sp */
			in->imm = sext(ubits(h, 12, 1) << 9 | ubits(h, 3, 2) << 7 |
					   ubits(h, 5, 1) << 6 | ubits(h, 2, 1) << 5 |
					   ubits(h, 6, 1) << 4,
				       10);
			if (in->imm == 0)
				return false;
			in->kind = RV_K_ADDI;
			in->rd = in->rs1 = RV_REG_SP;
			return true;
		}
		return imm6 != 0; /* c.lui */
	case 014: /* misc-alu: c.subw/c.addw and Zcb's forms all allocated */
		return true;
	case 015: /* c.j: jal x0, imm */
		in->kind = RV_K_JAL;
		in->imm = sext(ubits(h, 12, 1) << 11 | ubits(h, 11, 1) << 4 | ubits(h, 9, 2) << 8 |
				   ubits(h, 8, 1) << 10 | ubits(h, 7, 1) << 6 | ubits(h, 6, 1) << 7 |
				   ubits(h, 3, 3) << 1 | ubits(h, 2, 1) << 5,
			       12);
		return true;
	case 016: /* c.beqz: beq rs1', x0, imm */
	case 017: /* c.bnez */
		in->kind = RV_K_BRANCH;
		in->funct3 = f3 == 6 ? 0 : 1;
		in->rs1 = CREG(h >> 7);
		in->imm = sext(ubits(h, 12, 1) << 8 | ubits(h, 10, 2) << 3 | ubits(h, 5, 2) << 6 |
				   ubits(h, 3, 2) << 1 | ubits(h, 2, 1) << 5,
			       9);
		return true;

	case 020: /* c.slli */
	case 021: /* c.fldsp */
	case 025: /* c.fsdsp */
	case 026: /* c.swsp */
		return true;
	case 022: /* c.lwsp */
		return rd != 0;
	case 023: /* c.ldsp: ld rd, uimm(sp) */
		if (rd == 0)
			return false;
		in->kind = RV_K_LD;
		in->rd = (uint8_t)rd;
		in->rs1 = RV_REG_SP;
		in->imm = ubits(h, 12, 1) << 5 | ubits(h, 5, 2) << 3 | ubits(h, 2, 3) << 6;
		return true;
	case 027: /* c.sdsp: sd rs2, uimm(sp) */
		in->kind = RV_K_SD;
		in->rs1 = RV_REG_SP;
		in->rs2 = (uint8_t)rs2;
		in->imm = ubits(h, 10, 3) << 3 | ubits(h, 7, 3) << 6;
		return true;
	case 024:
		if (!ubits(h, 12, 1)) {
			if (rs2 == 0) { /* c.jr: jalr x0, 0(rs1) */
				if (rd == 0)
					return false;
				in->kind = RV_K_JALR;
				in->rs1 = (uint8_t)rd;
				return true;
			}
			/* c.mv: add rd, x0, rs2, i.e. addi rd, rs2, 0 */
			in->kind = RV_K_ADDI;
			in->rd = (uint8_t)rd;
			in->rs1 = (uint8_t)rs2;
			return true;
		}
		if (rd == 0 && rs2 == 0) {
			in->kind = RV_K_EBREAK;
			return true;
		}
		if (rs2 == 0) { /* c.jalr: jalr ra, 0(rs1) */
			in->kind = RV_K_JALR;
			in->rd = RV_REG_RA;
			in->rs1 = (uint8_t)rd;
		}
		return true; /* or c.add */
	default:
		return false;
	}
}

/* Decode the instruction at code[0..avail). */
static bool
rv_decode(const uint8_t *code, size_t avail, rv_insn_t *in)
{
	uint32_t lo;

	if (code == NULL || avail < 2)
		return false;
	lo = (uint32_t)code[0] | (uint32_t)code[1] << 8;
	if ((lo & 3) != 3)
		return rv_decode16(lo, in);
	if ((lo & 0x1f) == 0x1f || avail < 4)
		return false;
	return rv_decode32(lo | (uint32_t)code[2] << 16 | (uint32_t)code[3] << 24, in);
}

static uint8_t
rv_flags(const rv_insn_t *in)
{
	switch (in->kind) {
	case RV_K_JAL:
		return in->rd == 0 ? ISA_INSN_JUMP : ISA_INSN_CALL;
	case RV_K_JALR:
		if (in->rd == 0)
			return in->rs1 == RV_REG_RA ? ISA_INSN_RET
						    : ISA_INSN_JUMP | ISA_INSN_INDIRECT;
		return ISA_INSN_CALL | ISA_INSN_INDIRECT;
	case RV_K_BRANCH:
		return ISA_INSN_COND;
	case RV_K_AUIPC:
		return ISA_INSN_PCREL;
	case RV_K_EBREAK:
	case RV_K_ECALL:
		return ISA_INSN_TRAP;
	case RV_K_REFUSE:
		/* privileged SYSTEM instructions trap in user mode */
		return in->funct3 == 0 || in->funct3 == 4 ? ISA_INSN_TRAP : 0;
	default:
		return 0;
	}
}

int
isa_insn_decode(const uint8_t *code, size_t avail, uintptr_t pc, isa_insn_t *out)
{
	rv_insn_t in;

	if (!rv_decode(code, avail, &in))
		return -1;
	out->ii_len = in.len;
	out->ii_flags = rv_flags(&in);
	out->ii_target = in.kind == RV_K_JAL || in.kind == RV_K_BRANCH
			     ? (uint64_t)pc + (uint64_t)in.imm
			     : 0;
	return 0;
}

/* ------------------------------------------------------------------------
 * Function sites
 * ------------------------------------------------------------------------
 * Return sites as the pid provider of DTrace's RISC-V libdtrace takes them
 * (a jalr or c.jr that is not a call, a jal or c.j out of the function),
 * narrowed the way this tree's x86_64 module follows illumos: a return is a
 * jump through ra (ret, c.jr ra); a tail call is a jal/c.j or a
 * conditional branch whose target is outside the function, or the "tail"
 * sequence auipc rX; jalr x0, imm(rX) whose computed target is outside.
 * A jump through any other register is not a return site: compilers
 * dispatch switch tables with "jr a5" just as they make indirect tail
 * calls, and the two cannot be told apart (x86's indirect jmp has the same
 * rule).  Jump tables live in .rodata, so a function decodes to its end.
 */
static bool
rv_leaves(uint64_t t, uintptr_t base, size_t size)
{
	return t < base || t - base >= size;
}

int
isa_func_sites(const uint8_t *code, size_t size, uintptr_t base, isa_site_fn_t cb, void *arg)
{
	rv_insn_t in, prev = {0};
	uint64_t auipc_val = 0;
	bool prev_auipc = false;
	size_t off;
	int rc;

	for (off = 0; off < size; off += in.len)
		if (!rv_decode(code + off, size - off, &in))
			return -1;
	if (off != size)
		return -1;

	for (off = 0; off < size; off += in.len) {
		bool ret = false;

		(void)rv_decode(code + off, size - off, &in);
		if ((rc = cb(off, ISA_SITE_INSN, arg)) != 0)
			return rc;
		switch (in.kind) {
		case RV_K_JALR:
			if (in.rd != 0)
				break;
			if (in.rs1 == RV_REG_RA)
				ret = true;
			else if (prev_auipc && prev.rd == in.rs1)
				ret = rv_leaves(auipc_val + (uint64_t)in.imm, base, size);
			break;
		case RV_K_JAL:
			ret = in.rd == 0 && rv_leaves(base + off + (uint64_t)in.imm, base, size);
			break;
		case RV_K_BRANCH:
			ret = rv_leaves(base + off + (uint64_t)in.imm, base, size);
			break;
		default:
			break;
		}
		if (ret && (rc = cb(off, ISA_SITE_RETURN, arg)) != 0)
			return rc;
		prev = in;
		prev_auipc = in.kind == RV_K_AUIPC && in.rd != 0;
		if (prev_auipc)
			auipc_val = base + off + (uint64_t)in.imm;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Preparing a probed instruction (probe context: no)
 * ------------------------------------------------------------------------ */
int
isa_probe_prepare(const uint8_t *code, size_t avail, uintptr_t pc, isa_probe_insn_t *pi)
{
	rv_insn_t in;

	__builtin_memset(pi, 0, sizeof(*pi));
	if (!rv_decode(code, avail, &in) || (pc & 1) != 0)
		return -1;
	__builtin_memcpy(pi->pi_orig, code, in.len);
	pi->pi_len = in.len;

	switch (in.kind) {
	case RV_K_JAL:
		pi->pi_op = RV_OP_JAL;
		pi->pi_data[0] = (uint64_t)pc + (uint64_t)in.imm;
		pi->pi_data[1] = in.rd;
		return 0;
	case RV_K_JALR:
		pi->pi_op = RV_OP_JALR;
		pi->pi_data[0] = in.rs1;
		pi->pi_data[1] = (uint64_t)in.imm;
		pi->pi_data[2] = in.rd;
		return 0;
	case RV_K_BRANCH:
		pi->pi_op = RV_OP_BRANCH;
		pi->pi_data[0] = (uint64_t)pc + (uint64_t)in.imm;
		pi->pi_data[1] = in.rs1;
		pi->pi_data[2] = in.rs2;
		pi->pi_data[3] = in.funct3;
		return 0;
	case RV_K_AUIPC:
	case RV_K_ADDI:
	case RV_K_LD:
		if (in.rd == 0) {
			/* nop, c.nop and hints; a load to x0 still accesses
			 * memory (and may fault), so it runs out of line */
			if (in.kind != RV_K_LD) {
				pi->pi_op = RV_OP_NEXT;
				return 0;
			}
			break;
		}
		pi->pi_op = in.kind == RV_K_AUIPC ? RV_OP_AUIPC
			    : in.kind == RV_K_ADDI ? RV_OP_ADDI
						   : RV_OP_LD;
		pi->pi_data[0] = in.rd;
		if (in.kind == RV_K_AUIPC) {
			pi->pi_data[1] = (uint64_t)pc + (uint64_t)in.imm;
		} else {
			pi->pi_data[1] = in.rs1;
			pi->pi_data[2] = (uint64_t)in.imm;
		}
		return 0;
	case RV_K_SD:
		pi->pi_op = RV_OP_SD;
		pi->pi_data[0] = in.rs2;
		pi->pi_data[1] = in.rs1;
		pi->pi_data[2] = (uint64_t)in.imm;
		return 0;
	case RV_K_EBREAK:
	case RV_K_REFUSE:
		__builtin_memset(pi, 0, sizeof(*pi));
		return -1;
	default:
		break;
	}
	/* ecall included: the kernel returns into the copy, whose ebreak
	 * brings the thread back. */
	pi->pi_op = RV_OP_OOL;
	pi->pi_tramp_len = (uint16_t)(in.len + 4);
	pi->pi_tramp_bp = (uint16_t)(in.len + 1);
	return 0;
}

size_t
isa_probe_tramp(const isa_probe_insn_t *pi, uintptr_t pc, uintptr_t tramp, uint8_t *buf,
		size_t bufsz)
{
	size_t n = pi->pi_len;

	(void)pc;
	(void)tramp; /* the copy reads no PC */
	if (pi->pi_op != RV_OP_OOL || pi->pi_tramp_len == 0 || bufsz < pi->pi_tramp_len)
		return 0;
	__builtin_memcpy(buf, pi->pi_orig, n);
	buf[n] = (uint8_t)RV_EBREAK;
	buf[n + 1] = (uint8_t)(RV_EBREAK >> 8);
	buf[n + 2] = (uint8_t)(RV_EBREAK >> 16);
	buf[n + 3] = (uint8_t)(RV_EBREAK >> 24);
	return n + 4;
}

/* ------------------------------------------------------------------------
 * Stepping (probe context: yes)
 * ------------------------------------------------------------------------
 * x0 reads as zero whatever the image holds and is never written.  Memory
 * goes through the nofault primitives; registers change only after every
 * access succeeded.
 */
static uint64_t
xreg(const isa_regs_t *regs, uint64_t n)
{
	return n == 0 ? 0 : regs->r[n];
}

static void
set_xreg(isa_regs_t *regs, uint64_t n, uint64_t v)
{
	if (n != 0)
		regs->r[n] = v;
}

static bool
branch_taken(unsigned funct3, uint64_t a, uint64_t b)
{
	switch (funct3) {
	case 0: /* beq */
		return a == b;
	case 1: /* bne */
		return a != b;
	case 4: /* blt */
		return (int64_t)a < (int64_t)b;
	case 5: /* bge */
		return (int64_t)a >= (int64_t)b;
	case 6: /* bltu */
		return a < b;
	default: /* bgeu */
		return a >= b;
	}
}

int
isa_probe_step(const isa_probe_insn_t *pi, uintptr_t pc, uintptr_t tramp, isa_regs_t *regs,
	       uint64_t *save, uintptr_t *fault_addr)
{
	uint64_t *r = regs->r;
	const uint64_t *d = pi->pi_data;
	uint64_t next = (uint64_t)pc + pi->pi_len, v;
	isa_nofault_result_t nf;

	(void)save;
	switch (pi->pi_op) {
	case RV_OP_NEXT:
		r[ISA_REG_PC] = next;
		return ISA_STEP_DONE;
	case RV_OP_JAL:
		set_xreg(regs, d[1], next);
		r[ISA_REG_PC] = d[0];
		return ISA_STEP_DONE;
	case RV_OP_JALR:
		/* the target is computed before rd is written (jalr ra, 0(ra)) */
		v = (xreg(regs, d[0]) + d[1]) & ~(uint64_t)1;
		set_xreg(regs, d[2], next);
		r[ISA_REG_PC] = v;
		return ISA_STEP_DONE;
	case RV_OP_BRANCH:
		r[ISA_REG_PC] = branch_taken((unsigned)d[3], xreg(regs, d[1]), xreg(regs, d[2]))
				    ? d[0]
				    : next;
		return ISA_STEP_DONE;
	case RV_OP_AUIPC:
		set_xreg(regs, d[0], d[1]);
		r[ISA_REG_PC] = next;
		return ISA_STEP_DONE;
	case RV_OP_ADDI:
		set_xreg(regs, d[0], xreg(regs, d[1]) + d[2]);
		r[ISA_REG_PC] = next;
		return ISA_STEP_DONE;
	case RV_OP_LD:
		nf = isa_nofault_load64((uintptr_t)(xreg(regs, d[1]) + d[2]));
		if (nf.fault != 0) {
			*fault_addr = (uintptr_t)nf.value;
			return ISA_STEP_FAULT;
		}
		set_xreg(regs, d[0], nf.value);
		r[ISA_REG_PC] = next;
		return ISA_STEP_DONE;
	case RV_OP_SD:
		v = xreg(regs, d[0]);
		nf = isa_nofault_copy((void *)(uintptr_t)(xreg(regs, d[1]) + d[2]), (uintptr_t)&v,
				      sizeof(v));
		if (nf.fault != 0) {
			*fault_addr = (uintptr_t)nf.value;
			return ISA_STEP_FAULT;
		}
		r[ISA_REG_PC] = next;
		return ISA_STEP_DONE;
	case RV_OP_OOL:
		r[ISA_REG_PC] = tramp;
		return ISA_STEP_TRAMP;
	default:
		*fault_addr = pc;
		return ISA_STEP_FAULT;
	}
}

void
isa_probe_step_done(const isa_probe_insn_t *pi, uintptr_t pc, isa_regs_t *regs, uint64_t save)
{
	(void)save;
	regs->r[ISA_REG_PC] = (uint64_t)pc + pi->pi_len;
}
