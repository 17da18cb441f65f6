/*
 * isa/aarch64/insn.c: instruction probes on AArch64 (A64).
 *
 * Every A64 instruction is one little-endian 32-bit word, so decoding is a
 * few mask/value tests and the whole half of isa.h lives here, freestanding,
 * in dtrace_isa (a kernel links it; nothing here allocates or calls libc):
 *   - isa_insn_decode: flags and direct targets of branches; the length is 4;
 *   - isa_func_sites: boundaries and return sites of a function;
 *   - isa_probe_prepare / isa_probe_tramp (probe context: no): reduce an
 *     instruction to one A64_OP_* in pi_op and its operands in pi_data,
 *     resolved against the instruction's address, and write its copy;
 *   - isa_probe_step / isa_probe_step_done (probe context: yes): carry it out.
 *
 * Emulated: every instruction that reads the PC (b, bl, b.cond, bc.cond,
 * cbz/cbnz, tbz/tbnz, br, blr, ret, adr, adrp, ldr/ldrsw/prfm literal) and
 * the common prologue and epilogue instructions (nop, bti, stp/ldp of two X
 * registers, add/sub of an immediate without flags, mov between X
 * registers), so most entry and return probes cost one trap.
 *
 * Out of line: everything else, copied into the trampoline and followed by a
 * brk whose trap (pi_tramp_bp) isa_probe_step_done() turns into "resume at
 * pc + 4".  An absolute branch back would need a register: the ABI lets
 * veneers clobber x16/x17 only between a call and its callee, and compilers
 * use both as ordinary temporaries inside functions (gcc's indirect tail
 * call is "mov x16, x2; br x16": a copy of the mov ending in "ldr x16, =back;
 * br x16" would break the br).  A direct b reaches only +-128 MiB, and
 * trampolines live wherever the port put its code memory.  A SIMD&FP
 * literal load (ldr s/d/q, label), which no register image can emulate, runs
 * rewritten as "ldr s/d/q, [x16]" with x16 borrowed: the step saves x16 and
 * loads it with the literal's address, the closing brk puts it back.
 * retaa/retab and braa/brab/braaz/brabz run their copy as is: they
 * authenticate with keys only the processor holds, compute no address from
 * the PC, and never come back.
 *
 * Refused: brk, hlt, udf, dcps, eret/drps and their PAC forms (trap or
 * privileged by design, or our own breakpoint); load/store exclusives
 * (ldxr/stxr and pairs): the trap between them clears the exclusive
 * monitor, so a probed ldxr/stxr loop would retry for ever; blraa/blrab
 * (and the z forms): their copy would link to the trampoline; encodings in
 * the unallocated top-level groups.
 *
 * Not modelled: the SP alignment check of an emulated stp/ldp through a
 * misaligned sp (the processor faults, the emulation does not), BTYPE (an
 * emulated br/blr does not set it, so the target's bti is not checked), and
 * top-byte-ignore of branch targets.
 */
#include "isa.h"

/* pi_op values (private to this file). */
enum a64_op {
	A64_OP_INVALID = 0, /* never prepared: stepping it is refused */
	A64_OP_NEXT,	    /* nop, bti, prfm literal: only advance the PC */
	A64_OP_B,	    /* data[0] = target */
	A64_OP_BL,	    /* data[0] = target */
	A64_OP_BCOND,	    /* data[0] = target, data[1] = condition */
	A64_OP_CBZ,	    /* data[0] = target, data[1] = Rt, data[2] = A64_CB_* */
	A64_OP_TBZ,	    /* data[0] = target, data[1] = Rt, data[2] = bit, data[3] = nz */
	A64_OP_BR,	    /* br/ret: data[0] = Rn */
	A64_OP_BLR,	    /* data[0] = Rn */
	A64_OP_ADR,	    /* adr/adrp: data[0] = Rd, data[1] = value */
	A64_OP_LDR_LIT,	    /* data[0] = Rt, data[1] = address, data[2] = A64_LIT_* */
	A64_OP_PAIR,	    /* stp/ldp of X registers: data[0] = Rt | Rt2 << 8 | Rn << 16,
			     * data[1] = offset, data[2] = A64_PAIR_* */
	A64_OP_ADDSUB,	    /* add/sub Xd|SP, Xn|SP, #imm: data[0] = Rd, data[1] = Rn,
			     * data[2] = imm (negated for sub) */
	A64_OP_MOV,	    /* orr Xd, xzr, Xm: data[0] = Rd, data[1] = Rm */
	A64_OP_OOL,	    /* copy + brk */
	A64_OP_OOL_LIT,	    /* rewritten SIMD&FP literal load + brk: data[0] = address,
			     * data[1] = the rewritten word */
	A64_OP_OOL_GONE,    /* copy that never falls through (retaa, braa) */
};

#define A64_CB_NZ 1 /* cbnz */
#define A64_CB_64 2 /* X register (else W) */

#define A64_LIT_W 0	/* ldr Wt: 32 bits, zero-extended */
#define A64_LIT_X 1	/* ldr Xt */
#define A64_LIT_SW 2	/* ldrsw Xt: 32 bits, sign-extended */

#define A64_PAIR_LOAD 1	    /* ldp (else stp) */
#define A64_PAIR_WBACK 2    /* pre- or post-index: write the address back */
#define A64_PAIR_POST 4	    /* post-index: access at the base */

#define A64_XZR 31	    /* register 31 read as zero / written to nowhere */
#define A64_SCRATCH 16	    /* x16 (IP0), borrowed by A64_OP_OOL_LIT */

#define A64_DTRACE_BRK (0xd4200000u | (0x40du << 5))

static uint32_t
word(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void
put_word(uint8_t *b, uint32_t w)
{
	b[0] = (uint8_t)w;
	b[1] = (uint8_t)(w >> 8);
	b[2] = (uint8_t)(w >> 16);
	b[3] = (uint8_t)(w >> 24);
}

/* Bits [lo, lo + n) of w, sign-extended. */
static int64_t
sbits(uint32_t w, unsigned lo, unsigned n)
{
	uint64_t v = (w >> lo) & ((1u << n) - 1);

	return (int64_t)(v << (64 - n)) >> (64 - n);
}

static unsigned
ubits(uint32_t w, unsigned lo, unsigned n)
{
	return (w >> lo) & ((1u << n) - 1);
}

/* ------------------------------------------------------------------------
 * Classification
 * ------------------------------------------------------------------------
 * One table of mask/value pairs names the instructions this file treats
 * specially; everything else is "other" (out of line).  The order matters
 * only where encodings nest (retaa inside the branch-register group).
 */
enum a64_kind {
	K_OTHER = 0,
	K_UNALLOC, /* top-level unallocated: not an instruction */
	K_UDF,
	K_B,
	K_BL,
	K_BCOND, /* b.cond and bc.cond */
	K_CBZ,
	K_TBZ,
	K_BR,
	K_BLR,
	K_RET,
	K_BR_PAC,  /* braa, brab, braaz, brabz */
	K_BLR_PAC, /* blraa, blrab, blraaz, blrabz */
	K_RET_PAC, /* retaa, retab */
	K_ERET,	   /* eret, drps, eretaa, eretab */
	K_BRGRP,   /* anything else in the branch-register group */
	K_ADR,
	K_ADRP,
	K_LDR_LIT,
	K_SVC,	   /* svc, hvc, smc: OOL */
	K_BRK,	   /* brk, hlt, dcps1-3 */
	K_NOP,
	K_BTI,
	K_EXCL,	   /* load/store exclusive register or pair */
	K_PAIR,	   /* stp/ldp X, post/offset/pre */
	K_ADDSUB,  /* add/sub X (immediate), no flags */
	K_MOV,	   /* orr Xd, xzr, Xm */
};

typedef struct a64_pattern {
	uint32_t mask, value;
	uint8_t kind;
} a64_pattern_t;

/* clang-format off */
static const a64_pattern_t a64_patterns[] = {
	{0xffff0000, 0x00000000, K_UDF},
	{0xfc000000, 0x14000000, K_B},
	{0xfc000000, 0x94000000, K_BL},
	{0xff000000, 0x54000000, K_BCOND},	/* bit 4: 0 b.cond, 1 bc.cond */
	{0x7e000000, 0x34000000, K_CBZ},
	{0x7e000000, 0x36000000, K_TBZ},
	{0xfffffc1f, 0xd61f0000, K_BR},
	{0xfffffc1f, 0xd63f0000, K_BLR},
	{0xfffffc1f, 0xd65f0000, K_RET},
	{0xfffff81f, 0xd61f081f, K_BR_PAC},	/* braaz, brabz */
	{0xfffff800, 0xd71f0800, K_BR_PAC},	/* braa, brab (Xm|SP) */
	{0xfffff81f, 0xd63f081f, K_BLR_PAC},	/* blraaz, blrabz */
	{0xfffff800, 0xd73f0800, K_BLR_PAC},	/* blraa, blrab */
	{0xfffffbff, 0xd65f0bff, K_RET_PAC},	/* retaa, retab */
	{0xffdffc1f, 0xd69f0000, K_ERET},	/* eret (opc 0100), drps (opc 0101) */
	{0xfffffbff, 0xd69f0bff, K_ERET},	/* eretaa, eretab */
	{0xfe000000, 0xd6000000, K_BRGRP},
	{0x9f000000, 0x10000000, K_ADR},
	{0x9f000000, 0x90000000, K_ADRP},
	{0x3b000000, 0x18000000, K_LDR_LIT},
	{0xffe0001c, 0xd4000000, K_SVC},	/* svc/hvc/smc: LL 01..11 checked below */
	{0xffe0001f, 0xd4200000, K_BRK},
	{0xffe0001f, 0xd4400000, K_BRK},	/* hlt */
	{0xffe0001c, 0xd4a00000, K_BRK},	/* dcps1..3 */
	{0xffffffff, 0xd503201f, K_NOP},
	{0xffffff3f, 0xd503241f, K_BTI},	/* bti, bti c, bti j, bti jc */
	{0x3f000000, 0x08000000, K_EXCL},	/* refined in a64_classify */
	{0xfe400000, 0xa8000000, K_PAIR},	/* stp X: post (0xa88), offset (0xa90), pre (0xa98) */
	{0xfe400000, 0xa8400000, K_PAIR},	/* ldp X */
	{0xbf800000, 0x91000000, K_ADDSUB},	/* add/sub X imm (bit 30: sub), S clear */
	{0xffe0ffe0, 0xaa0003e0, K_MOV},
};
/* clang-format on */

static enum a64_kind
a64_classify(uint32_t w)
{
	unsigned op0 = ubits(w, 25, 4), i;

	/* Top-level groups 0001 and 0011 are unallocated; 0000 holds only
	 * udf (and SME, whose bit 31 is set). */
	if (op0 == 1 || op0 == 3 || (op0 == 0 && (w & 0xffff0000) != 0 && !(w >> 31)))
		return K_UNALLOC;
	for (i = 0; i < sizeof(a64_patterns) / sizeof(a64_patterns[0]); i++) {
		const a64_pattern_t *p = &a64_patterns[i];

		if ((w & p->mask) != p->value)
			continue;
		switch (p->kind) {
		case K_SVC:
			if (ubits(w, 0, 2) == 0)
				return K_UNALLOC;
			break;
		case K_EXCL:
			/* o2 (bit 23) set: load-acquire/store-release and CAS;
			 * o1 (bit 21) with a 32/64-bit size and o2 clear is an
			 * exclusive pair, with a byte/halfword size CASP. */
			if (ubits(w, 23, 1) || (ubits(w, 21, 1) && !ubits(w, 31, 1)))
				return K_OTHER;
			break;
		case K_PAIR:
			/* mode 00 (stnp/ldnp) is not one of the three */
			if (ubits(w, 23, 2) == 0)
				return K_OTHER;
			break;
		default:
			break;
		}
		return (enum a64_kind)p->kind;
	}
	return K_OTHER;
}

/* The direct target of a PC-relative branch of kind k at pc. */
static uint64_t
a64_target(enum a64_kind k, uint32_t w, uintptr_t pc)
{
	switch (k) {
	case K_B:
	case K_BL:
		return (uint64_t)pc + (uint64_t)(sbits(w, 0, 26) * 4);
	case K_BCOND:
	case K_CBZ:
		return (uint64_t)pc + (uint64_t)(sbits(w, 5, 19) * 4);
	case K_TBZ:
		return (uint64_t)pc + (uint64_t)(sbits(w, 5, 14) * 4);
	default:
		return 0;
	}
}

int
isa_insn_decode(const uint8_t *code, size_t avail, uintptr_t pc, isa_insn_t *out)
{
	enum a64_kind k;
	uint32_t w;
	uint8_t f = 0;

	if (code == NULL || avail < 4)
		return -1;
	w = word(code);
	k = a64_classify(w);
	switch (k) {
	case K_UNALLOC:
		return -1;
	case K_B:
		f = ISA_INSN_JUMP;
		break;
	case K_BL:
		f = ISA_INSN_CALL;
		break;
	case K_BCOND:
	case K_CBZ:
	case K_TBZ:
		f = ISA_INSN_COND;
		break;
	case K_BR:
	case K_BR_PAC:
	case K_BRGRP:
		f = ISA_INSN_JUMP | ISA_INSN_INDIRECT;
		break;
	case K_BLR:
	case K_BLR_PAC:
		f = ISA_INSN_CALL | ISA_INSN_INDIRECT;
		break;
	case K_RET:
	case K_RET_PAC:
		f = ISA_INSN_RET;
		break;
	case K_ERET:
		f = ISA_INSN_JUMP | ISA_INSN_INDIRECT | ISA_INSN_TRAP;
		break;
	case K_ADR:
	case K_ADRP:
	case K_LDR_LIT:
		f = ISA_INSN_PCREL;
		break;
	case K_UDF:
	case K_SVC:
	case K_BRK:
		f = ISA_INSN_TRAP;
		break;
	default:
		break;
	}
	out->ii_len = 4;
	out->ii_flags = f;
	out->ii_target = a64_target(k, w, pc);
	return 0;
}

/* ------------------------------------------------------------------------
 * Function sites
 * ------------------------------------------------------------------------
 * Return sites as FreeBSD's fbt takes them on arm64 (ret, and a b whose
 * target lies outside the function: a tail call), extended the way this
 * tree's x86_64 module extends illumos's pid rules: every ret form (ret xN,
 * retaa, retab), conditional branches (b.cond, cbz/cbnz, tbz/tbnz) out of
 * the function, and the indirect tail call.  An indirect branch is a tail
 * call only through x16 or x17 (br, braa, brab, braaz, brabz): AAPCS64
 * reserves them for inter-procedure branches, gcc emits "br x16" for every
 * indirect sibling call, and a guarded (BTI) callee's "bti c" accepts a br
 * only from x16/x17.  A br through any other register is how compilers
 * dispatch a switch's jump table, a branch inside the function.  Jump
 * tables live in .rodata on AArch64, so a function is decoded to its end
 * with no special rule.
 */
static bool
a64_return_site(uint32_t w, uintptr_t pc, uintptr_t base, size_t size)
{
	enum a64_kind k = a64_classify(w);
	uint64_t t;

	switch (k) {
	case K_RET:
	case K_RET_PAC:
		return true;
	case K_BR:
	case K_BR_PAC:
		return ubits(w, 5, 5) == 16 || ubits(w, 5, 5) == 17;
	case K_B:
	case K_BCOND:
	case K_CBZ:
	case K_TBZ:
		t = a64_target(k, w, pc);
		return t < base || t - base >= size;
	default:
		return false;
	}
}

int
isa_func_sites(const uint8_t *code, size_t size, uintptr_t base, isa_site_fn_t cb, void *arg)
{
	size_t off;
	int rc;

	if (size % 4 != 0)
		return -1;
	for (off = 0; off < size; off += 4)
		if (a64_classify(word(code + off)) == K_UNALLOC)
			return -1;
	for (off = 0; off < size; off += 4) {
		if ((rc = cb(off, ISA_SITE_INSN, arg)) != 0)
			return rc;
		if (a64_return_site(word(code + off), base + off, base, size) &&
		    (rc = cb(off, ISA_SITE_RETURN, arg)) != 0)
			return rc;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Preparing a probed instruction (probe context: no)
 * ------------------------------------------------------------------------ */
static int
prepare_ool(isa_probe_insn_t *pi)
{
	pi->pi_op = A64_OP_OOL;
	pi->pi_tramp_len = 8;
	pi->pi_tramp_bp = 5;
	return 0;
}

static int
prepare_ldr_lit(uint32_t w, uintptr_t pc, isa_probe_insn_t *pi)
{
	unsigned opc = ubits(w, 30, 2), rt = ubits(w, 0, 5);
	uint64_t addr = (uint64_t)pc + (uint64_t)(sbits(w, 5, 19) * 4);
	/* ldr St/Dt/Qt, [x16]: LDR (immediate, SIMD&FP), unsigned offset 0 */
	static const uint32_t simd_base[3] = {0xbd400000, 0xfd400000, 0x3dc00000};

	if (ubits(w, 26, 1)) {
		if (opc == 3)
			return -1;
		pi->pi_op = A64_OP_OOL_LIT;
		pi->pi_data[0] = addr;
		pi->pi_data[1] = simd_base[opc] | A64_SCRATCH << 5 | rt;
		pi->pi_tramp_len = 8;
		pi->pi_tramp_bp = 5;
		return 0;
	}
	if (opc == 3) {
		/* prfm: a hint with no architectural effect */
		pi->pi_op = A64_OP_NEXT;
		return 0;
	}
	pi->pi_op = A64_OP_LDR_LIT;
	pi->pi_data[0] = rt;
	pi->pi_data[1] = addr;
	pi->pi_data[2] = opc == 0 ? A64_LIT_W : opc == 1 ? A64_LIT_X : A64_LIT_SW;
	return 0;
}

static int
prepare_pair(uint32_t w, isa_probe_insn_t *pi)
{
	unsigned rt = ubits(w, 0, 5), rn = ubits(w, 5, 5), rt2 = ubits(w, 10, 5);
	unsigned mode = ubits(w, 23, 2); /* 01 post, 10 offset, 11 pre */
	bool load = ubits(w, 22, 1) != 0;
	uint64_t f = 0;

	/* Constrained-unpredictable forms run as the processor runs them. */
	if ((load && rt == rt2) || (mode != 2 && rn != 31 && (rn == rt || rn == rt2)))
		return prepare_ool(pi);
	if (load)
		f |= A64_PAIR_LOAD;
	if (mode != 2)
		f |= A64_PAIR_WBACK;
	if (mode == 1)
		f |= A64_PAIR_POST;
	pi->pi_op = A64_OP_PAIR;
	pi->pi_data[0] = rt | rt2 << 8 | rn << 16;
	pi->pi_data[1] = (uint64_t)(sbits(w, 15, 7) * 8);
	pi->pi_data[2] = f;
	return 0;
}

int
isa_probe_prepare(const uint8_t *code, size_t avail, uintptr_t pc, isa_probe_insn_t *pi)
{
	enum a64_kind k;
	uint32_t w;
	uint64_t imm;

	__builtin_memset(pi, 0, sizeof(*pi));
	if (code == NULL || avail < 4 || (pc & 3) != 0)
		return -1;
	w = word(code);
	__builtin_memcpy(pi->pi_orig, code, 4);
	pi->pi_len = 4;
	k = a64_classify(w);

	switch (k) {
	case K_UNALLOC:
	case K_UDF:
	case K_BRK:
	case K_ERET:
	case K_EXCL:
	case K_BLR_PAC:
	case K_BRGRP:
		goto refuse;
	case K_NOP:
	case K_BTI:
		pi->pi_op = A64_OP_NEXT;
		return 0;
	case K_B:
	case K_BL:
		pi->pi_op = k == K_B ? A64_OP_B : A64_OP_BL;
		pi->pi_data[0] = a64_target(k, w, pc);
		return 0;
	case K_BCOND:
		pi->pi_op = A64_OP_BCOND;
		pi->pi_data[0] = a64_target(k, w, pc);
		pi->pi_data[1] = ubits(w, 0, 4);
		return 0;
	case K_CBZ:
		pi->pi_op = A64_OP_CBZ;
		pi->pi_data[0] = a64_target(k, w, pc);
		pi->pi_data[1] = ubits(w, 0, 5);
		pi->pi_data[2] = (ubits(w, 24, 1) ? A64_CB_NZ : 0) | (ubits(w, 31, 1) ? A64_CB_64 : 0);
		return 0;
	case K_TBZ:
		pi->pi_op = A64_OP_TBZ;
		pi->pi_data[0] = a64_target(k, w, pc);
		pi->pi_data[1] = ubits(w, 0, 5);
		pi->pi_data[2] = ubits(w, 31, 1) << 5 | ubits(w, 19, 5);
		pi->pi_data[3] = ubits(w, 24, 1);
		return 0;
	case K_BR:
	case K_RET:
	case K_BLR:
		pi->pi_op = k == K_BLR ? A64_OP_BLR : A64_OP_BR;
		pi->pi_data[0] = ubits(w, 5, 5);
		return 0;
	case K_BR_PAC:
	case K_RET_PAC:
		pi->pi_op = A64_OP_OOL_GONE;
		pi->pi_tramp_len = 4;
		return 0;
	case K_ADR:
	case K_ADRP:
		imm = (uint64_t)(sbits(w, 5, 19) * 4) | ubits(w, 29, 2);
		imm = (uint64_t)((int64_t)(imm << 43) >> 43); /* imm21, sign-extended */
		pi->pi_op = A64_OP_ADR;
		pi->pi_data[0] = ubits(w, 0, 5);
		pi->pi_data[1] = k == K_ADR ? (uint64_t)pc + imm
					    : ((uint64_t)pc & ~(uint64_t)0xfff) + (imm << 12);
		return 0;
	case K_LDR_LIT:
		if (prepare_ldr_lit(w, pc, pi) != 0)
			goto refuse;
		return 0;
	case K_PAIR:
		return prepare_pair(w, pi);
	case K_ADDSUB:
		imm = (uint64_t)ubits(w, 10, 12) << (ubits(w, 22, 1) ? 12 : 0);
		pi->pi_op = A64_OP_ADDSUB;
		pi->pi_data[0] = ubits(w, 0, 5);
		pi->pi_data[1] = ubits(w, 5, 5);
		pi->pi_data[2] = ubits(w, 30, 1) ? (uint64_t)0 - imm : imm;
		return 0;
	case K_MOV:
		pi->pi_op = A64_OP_MOV;
		pi->pi_data[0] = ubits(w, 0, 5);
		pi->pi_data[1] = ubits(w, 16, 5);
		return 0;
	case K_SVC:
	case K_OTHER:
	default:
		return prepare_ool(pi);
	}

refuse:
	__builtin_memset(pi, 0, sizeof(*pi));
	return -1;
}

size_t
isa_probe_tramp(const isa_probe_insn_t *pi, uintptr_t pc, uintptr_t tramp, uint8_t *buf,
		size_t bufsz)
{
	(void)pc;
	(void)tramp; /* every form is position-independent */
	if (pi->pi_tramp_len == 0 || bufsz < pi->pi_tramp_len)
		return 0;
	switch (pi->pi_op) {
	case A64_OP_OOL:
		__builtin_memcpy(buf, pi->pi_orig, 4);
		put_word(buf + 4, A64_DTRACE_BRK);
		return 8;
	case A64_OP_OOL_LIT:
		put_word(buf, (uint32_t)pi->pi_data[1]);
		put_word(buf + 4, A64_DTRACE_BRK);
		return 8;
	case A64_OP_OOL_GONE:
		__builtin_memcpy(buf, pi->pi_orig, 4);
		return 4;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------------------
 * Stepping (probe context: yes)
 * ------------------------------------------------------------------------
 * Nothing here decodes: prepare resolved every PC-relative operand.
 * Memory goes through the nofault primitives and registers are written
 * only after every access succeeded.
 */
#define PSTATE_N (1ull << 31)
#define PSTATE_Z (1ull << 30)
#define PSTATE_C (1ull << 29)
#define PSTATE_V (1ull << 28)

/* The A64 condition codes (b.cond's low nibble). */
static bool
cond_holds(unsigned cc, uint64_t ps)
{
	bool n = (ps & PSTATE_N) != 0, z = (ps & PSTATE_Z) != 0;
	bool c = (ps & PSTATE_C) != 0, v = (ps & PSTATE_V) != 0;
	bool r;

	switch (cc >> 1) {
	case 0: /* eq */
		r = z;
		break;
	case 1: /* cs */
		r = c;
		break;
	case 2: /* mi */
		r = n;
		break;
	case 3: /* vs */
		r = v;
		break;
	case 4: /* hi */
		r = c && !z;
		break;
	case 5: /* ge */
		r = n == v;
		break;
	case 6: /* gt */
		r = !z && n == v;
		break;
	default: /* al: 1110 and 1111 both always */
		return true;
	}
	return (cc & 1) ? !r : r;
}

/* Register n where 31 is the zero register. */
static uint64_t
xreg(const isa_regs_t *regs, unsigned n)
{
	return n == A64_XZR ? 0 : regs->r[n];
}

static void
set_xreg(isa_regs_t *regs, unsigned n, uint64_t v)
{
	if (n != A64_XZR)
		regs->r[n] = v;
}

/* Register n where 31 is sp (ISA_REG_SPREG is 31 as well). */
static uint64_t
xsp(const isa_regs_t *regs, unsigned n)
{
	return regs->r[n];
}

static bool
load(uintptr_t addr, unsigned size, uint64_t *v, uintptr_t *fault_addr)
{
	isa_nofault_result_t r =
	    size == 8 ? isa_nofault_load64(addr) : isa_nofault_load32(addr);

	if (r.fault != 0) {
		*fault_addr = (uintptr_t)r.value;
		return false;
	}
	*v = r.value;
	return true;
}

static bool
store16(uintptr_t addr, const uint64_t v[2], uintptr_t *fault_addr)
{
	isa_nofault_result_t r = isa_nofault_copy((void *)addr, (uintptr_t)v, 16);

	if (r.fault != 0) {
		*fault_addr = (uintptr_t)r.value;
		return false;
	}
	return true;
}

static int
step_pair(const isa_probe_insn_t *pi, isa_regs_t *regs, uintptr_t *fault_addr)
{
	unsigned rt = pi->pi_data[0] & 0x1f, rt2 = (pi->pi_data[0] >> 8) & 0x1f;
	unsigned rn = (pi->pi_data[0] >> 16) & 0x1f;
	uint64_t f = pi->pi_data[2], base = xsp(regs, rn);
	uint64_t addr = (f & A64_PAIR_POST) ? base : base + pi->pi_data[1];
	uint64_t v[2];

	if (f & A64_PAIR_LOAD) {
		if (!load((uintptr_t)addr, 8, &v[0], fault_addr) ||
		    !load((uintptr_t)addr + 8, 8, &v[1], fault_addr))
			return ISA_STEP_FAULT;
		set_xreg(regs, rt, v[0]);
		set_xreg(regs, rt2, v[1]);
	} else {
		v[0] = xreg(regs, rt);
		v[1] = xreg(regs, rt2);
		if (!store16((uintptr_t)addr, v, fault_addr))
			return ISA_STEP_FAULT;
	}
	if (f & A64_PAIR_WBACK)
		regs->r[rn] = base + pi->pi_data[1];
	return ISA_STEP_DONE;
}

int
isa_probe_step(const isa_probe_insn_t *pi, uintptr_t pc, uintptr_t tramp, isa_regs_t *regs,
	       uint64_t *save, uintptr_t *fault_addr)
{
	uint64_t *r = regs->r;
	uint64_t next = (uint64_t)pc + 4, v;
	bool taken;

	switch (pi->pi_op) {
	case A64_OP_NEXT:
		r[ISA_REG_PC] = next;
		return ISA_STEP_DONE;
	case A64_OP_B:
		r[ISA_REG_PC] = pi->pi_data[0];
		return ISA_STEP_DONE;
	case A64_OP_BL:
		r[ISA_REG_LR] = next;
		r[ISA_REG_PC] = pi->pi_data[0];
		return ISA_STEP_DONE;
	case A64_OP_BCOND:
		taken = cond_holds((unsigned)pi->pi_data[1], r[ISA_REG_PSTATE]);
		r[ISA_REG_PC] = taken ? pi->pi_data[0] : next;
		return ISA_STEP_DONE;
	case A64_OP_CBZ:
		v = xreg(regs, (unsigned)pi->pi_data[1]);
		if (!(pi->pi_data[2] & A64_CB_64))
			v &= 0xffffffffu;
		taken = (v != 0) == ((pi->pi_data[2] & A64_CB_NZ) != 0);
		r[ISA_REG_PC] = taken ? pi->pi_data[0] : next;
		return ISA_STEP_DONE;
	case A64_OP_TBZ:
		v = (xreg(regs, (unsigned)pi->pi_data[1]) >> pi->pi_data[2]) & 1;
		taken = v == pi->pi_data[3];
		r[ISA_REG_PC] = taken ? pi->pi_data[0] : next;
		return ISA_STEP_DONE;
	case A64_OP_BR:
		r[ISA_REG_PC] = xreg(regs, (unsigned)pi->pi_data[0]);
		return ISA_STEP_DONE;
	case A64_OP_BLR:
		/* the target is read before x30 is written (blr x30) */
		v = xreg(regs, (unsigned)pi->pi_data[0]);
		r[ISA_REG_LR] = next;
		r[ISA_REG_PC] = v;
		return ISA_STEP_DONE;
	case A64_OP_ADR:
		set_xreg(regs, (unsigned)pi->pi_data[0], pi->pi_data[1]);
		r[ISA_REG_PC] = next;
		return ISA_STEP_DONE;
	case A64_OP_LDR_LIT:
		if (!load((uintptr_t)pi->pi_data[1], pi->pi_data[2] == A64_LIT_X ? 8 : 4, &v,
			  fault_addr))
			return ISA_STEP_FAULT;
		if (pi->pi_data[2] == A64_LIT_SW)
			v = (uint64_t)(int64_t)(int32_t)(uint32_t)v;
		set_xreg(regs, (unsigned)pi->pi_data[0], v);
		r[ISA_REG_PC] = next;
		return ISA_STEP_DONE;
	case A64_OP_PAIR:
		if (step_pair(pi, regs, fault_addr) != ISA_STEP_DONE)
			return ISA_STEP_FAULT;
		r[ISA_REG_PC] = next;
		return ISA_STEP_DONE;
	case A64_OP_ADDSUB:
		r[pi->pi_data[0]] = xsp(regs, (unsigned)pi->pi_data[1]) + pi->pi_data[2];
		r[ISA_REG_PC] = next;
		return ISA_STEP_DONE;
	case A64_OP_MOV:
		set_xreg(regs, (unsigned)pi->pi_data[0], xreg(regs, (unsigned)pi->pi_data[1]));
		r[ISA_REG_PC] = next;
		return ISA_STEP_DONE;
	case A64_OP_OOL_LIT:
		*save = r[A64_SCRATCH];
		r[A64_SCRATCH] = pi->pi_data[0];
		r[ISA_REG_PC] = tramp;
		return ISA_STEP_TRAMP;
	case A64_OP_OOL:
	case A64_OP_OOL_GONE:
		r[ISA_REG_PC] = tramp;
		return ISA_STEP_TRAMP;
	default:
		/* Not something prepare accepted: fault at the site rather
		 * than run code that may not exist. */
		*fault_addr = pc;
		return ISA_STEP_FAULT;
	}
}

void
isa_probe_step_done(const isa_probe_insn_t *pi, uintptr_t pc, isa_regs_t *regs, uint64_t save)
{
	if (pi->pi_op == A64_OP_OOL_LIT)
		regs->r[A64_SCRATCH] = save;
	regs->r[ISA_REG_PC] = (uint64_t)pc + 4;
}
