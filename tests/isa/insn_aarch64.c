/*
 * tests/isa/insn_aarch64.c: isa/aarch64/insn.c on this machine, over
 * instruction tables.
 *
 * The file under test is built for the host with isa/aarch64's headers;
 * its memory accesses go to fake_memory.h.  Checked:
 *   - isa_insn_decode: flags and direct targets of every branch form,
 *     PC-relative operands, traps, unallocated encodings;
 *   - isa_probe_prepare / isa_probe_tramp: which instructions are emulated,
 *     run out of line (copy + brk), rewritten (SIMD&FP literal loads) or
 *     refused, and the trampoline bytes;
 *   - isa_probe_step / isa_probe_step_done on register images: every
 *     PC-relative form (b, bl, b.cond under all sixteen conditions and
 *     NZCV states, cbz/cbnz and tbz/tbnz on W and X, br/blr/ret, adr/adrp,
 *     ldr/ldrsw/prfm literal, SIMD literal through x16) and the emulated
 *     prologue/epilogue forms, with the fault contract;
 *   - isa_func_sites on hand-assembled functions.
 * The encodings were taken from GNU as (aarch64-linux-gnu-as).
 */
#include <stdlib.h>
#include <string.h>

#include "fake_memory.h"
#include "isa.h"
#include "isa_test.h"

#define PC 0x400000u

enum cls {
	BAD,  /* decode fails */
	EMU,  /* emulated: no trampoline */
	OOL,  /* copy + brk */
	LIT,  /* rewritten literal load + brk */
	GONE, /* copy only: never falls through */
	NONE, /* decodes, but prepare refuses */
};

typedef struct row {
	const char *name;
	uint32_t w;
	uint8_t flags;
	int64_t target; /* - PC, for direct branches */
	uint8_t cls;
} row_t;

#define RET ISA_INSN_RET
#define JMP ISA_INSN_JUMP
#define JCC ISA_INSN_COND
#define CALL ISA_INSN_CALL
#define IND ISA_INSN_INDIRECT
#define REL ISA_INSN_PCREL
#define TRAP ISA_INSN_TRAP

/* clang-format off */
static const row_t rows[] = {
	{"nop", 0xd503201f, 0, 0, EMU},
	{"bti c", 0xd503245f, 0, 0, EMU},
	{"bti", 0xd503241f, 0, 0, EMU},
	{"b +0x100", 0x14000040, JMP, 0x100, EMU},
	{"b -8", 0x17fffffe, JMP, -8, EMU},
	{"bl +0x40", 0x94000010, CALL, 0x40, EMU},
	{"b.eq +8", 0x54000040, JCC, 8, EMU},
	{"b.ne -0x3c", 0x54fffe21, JCC, -0x3c, EMU},
	{"b.al -0x1c", 0x54ffff2e, JCC, -0x1c, EMU},
	{"bc.eq +8", 0x54000050, JCC, 8, EMU},
	{"cbz x3, +0xc", 0xb4000063, JCC, 0xc, EMU},
	{"cbnz w5, -0x38", 0x35fffe45, JCC, -0x38, EMU},
	{"tbz w2, #3, +0x14", 0x361800a2, JCC, 0x14, EMU},
	{"tbnz x9, #63, -0x34", 0xb7fffe69, JCC, -0x34, EMU},
	{"br x1", 0xd61f0020, JMP | IND, 0, EMU},
	{"br x16", 0xd61f0200, JMP | IND, 0, EMU},
	{"blr x2", 0xd63f0040, CALL | IND, 0, EMU},
	{"blr x30", 0xd63f03c0, CALL | IND, 0, EMU},
	{"ret", 0xd65f03c0, RET, 0, EMU},
	{"ret x3", 0xd65f0060, RET, 0, EMU},
	{"braaz x16", 0xd61f0a1f, JMP | IND, 0, GONE},
	{"braa x17, x0", 0xd71f0a20, JMP | IND, 0, GONE},
	{"retaa", 0xd65f0bff, RET, 0, GONE},
	{"retab", 0xd65f0fff, RET, 0, GONE},
	{"blraaz x3", 0xd63f087f, CALL | IND, 0, NONE},
	{"blraa x3, sp", 0xd73f087f, CALL | IND, 0, NONE},
	{"eret", 0xd69f03e0, JMP | IND | TRAP, 0, NONE},
	{"drps", 0xd6bf03e0, JMP | IND | TRAP, 0, NONE},
	{"adr x0, +0x11c4", 0x10008e20, REL, 0, EMU},
	{"adr x29, -0x77", 0x30fffc5d, REL, 0, EMU},
	{"adrp x1, +0x12345 pages", 0xb0091a21, REL, 0, EMU},
	{"adrp x2, -1 page", 0xf0ffffe2, REL, 0, EMU},
	{"ldr w3, literal", 0x18fffe03, REL, 0, EMU},
	{"ldr x4, literal", 0x58fff9e4, REL, 0, EMU},
	{"ldrsw x5, literal", 0x980003c5, REL, 0, EMU},
	{"prfm pldl1keep, literal", 0xd8ffffa0, REL, 0, EMU},
	{"ldr s0, literal", 0x1cfffc00, REL, 0, LIT},
	{"ldr d1, literal", 0x5cfffc21, REL, 0, LIT},
	{"ldr q2, literal", 0x9cfffc42, REL, 0, LIT},
	{"svc #0", 0xd4000001, TRAP, 0, OOL},
	{"hvc #0", 0xd4000002, TRAP, 0, OOL},
	{"brk #0x40d (ours)", 0xd42081a0, TRAP, 0, NONE},
	{"brk #1000", 0xd4207d00, TRAP, 0, NONE},
	{"hlt #0", 0xd4400000, TRAP, 0, NONE},
	{"udf #0", 0x00000000, TRAP, 0, NONE},
	{"ldxr x0, [x1]", 0xc85f7c20, 0, 0, NONE},
	{"stxr w2, x0, [x1]", 0xc8027c20, 0, 0, NONE},
	{"ldaxr w0, [x1]", 0x885ffc20, 0, 0, NONE},
	{"stlxr w2, w0, [x1]", 0x8802fc20, 0, 0, NONE},
	{"ldxp x0, x1, [x2]", 0xc87f0440, 0, 0, NONE},
	{"stxp w3, x0, x1, [x2]", 0xc8230440, 0, 0, NONE},
	{"ldar x0, [x1]", 0xc8dffc20, 0, 0, OOL},
	{"stlr x0, [x1]", 0xc89ffc20, 0, 0, OOL},
	{"cas x0, x1, [x2]", 0xc8a07c41, 0, 0, OOL},
	{"casp x0, x1, x2, x3, [x4]", 0x48207c82, 0, 0, OOL},
	{"stp x29, x30, [sp, #-32]!", 0xa9be7bfd, 0, 0, EMU},
	{"stp x19, x20, [sp, #16]", 0xa90153f3, 0, 0, EMU},
	{"ldp x29, x30, [sp], #32", 0xa8c27bfd, 0, 0, EMU},
	{"ldp x19, x20, [sp, #16]", 0xa94153f3, 0, 0, EMU},
	{"stp xzr, x1, [x0, #-8]", 0xa93f841f, 0, 0, EMU},
	{"stnp x0, x1, [sp]", 0xa80007e0, 0, 0, OOL},
	{"ldp x0, x0, [sp] (unpredictable)", 0xa94003e0, 0, 0, OOL},
	{"ldp x0, x1, [x0], #16 (unpredictable)", 0xa8c10400, 0, 0, OOL},
	{"sub sp, sp, #0x40", 0xd10103ff, 0, 0, EMU},
	{"mov x29, sp", 0x910003fd, 0, 0, EMU},
	{"add sp, sp, #1, lsl #12", 0x914007ff, 0, 0, EMU},
	{"sub x3, x4, #0xfff", 0xd13ffc83, 0, 0, EMU},
	{"adds x0, x1, #1", 0xb1000420, 0, 0, OOL},
	{"mov x0, x1", 0xaa0103e0, 0, 0, EMU},
	{"mov x1, xzr", 0xaa1f03e1, 0, 0, EMU},
	{"mov w0, w1", 0x2a0103e0, 0, 0, OOL},
	{"paciasp", 0xd503233f, 0, 0, OOL},
	{"autiasp", 0xd50323bf, 0, 0, OOL},
	{"mrs x0, tpidr_el0", 0xd53bd040, 0, 0, OOL},
	{"add x0, x1, x2", 0x8b020020, 0, 0, OOL},
	{"ldr x0, [x1, #8]", 0xf9400420, 0, 0, OOL},
	{"str x0, [sp, #-16]!", 0xf81f0fe0, 0, 0, OOL},
	{"unallocated (op0 0001)", 0x02000000, 0, 0, BAD},
	{"unallocated (op0 0011)", 0x06000000, 0, 0, BAD},
	{"reserved (op0 0000, not udf)", 0x00010000 | 0x01000000, 0, 0, BAD},
	{"exception, LL 00", 0xd4000000, 0, 0, BAD},
};
/* clang-format on */

static void
put32(uint8_t *b, uint32_t w)
{
	b[0] = (uint8_t)w;
	b[1] = (uint8_t)(w >> 8);
	b[2] = (uint8_t)(w >> 16);
	b[3] = (uint8_t)(w >> 24);
}

static uint32_t
get32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

#define BRK 0xd42081a0u

static void
test_rows(void)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const row_t *r = &rows[i];
		uint8_t b[8], tr[64];
		isa_insn_t in;
		isa_probe_insn_t pi;
		int rc;
		size_t n;

		put32(b, r->w);
		rc = isa_insn_decode(b, 4, PC, &in);
		if (r->cls == BAD) {
			CHECK(rc == -1, "%s: decoded", r->name);
			CHECK(isa_probe_prepare(b, 4, PC, &pi) == -1, "%s: prepared", r->name);
			continue;
		}
		CHECK(rc == 0, "%s: not decoded", r->name);
		if (rc != 0)
			continue;
		CHECK(in.ii_len == 4, "%s: length %u", r->name, in.ii_len);
		CHECK(in.ii_flags == r->flags, "%s: flags %#x, want %#x", r->name, in.ii_flags,
		      r->flags);
		CHECK(in.ii_target == (r->target ? PC + (uint64_t)r->target : 0),
		      "%s: target %#" PRIx64, r->name, in.ii_target);
		CHECK(isa_insn_decode(b, 3, PC, &in) == -1, "%s: decoded from 3 bytes", r->name);

		rc = isa_probe_prepare(b, 4, PC, &pi);
		if (r->cls == NONE) {
			CHECK(rc == -1, "%s: not refused", r->name);
			continue;
		}
		CHECK(rc == 0, "%s: refused", r->name);
		if (rc != 0)
			continue;
		CHECK(pi.pi_len == 4 && get32(pi.pi_orig) == r->w, "%s: original", r->name);
		memset(tr, 0xee, sizeof(tr));
		n = isa_probe_tramp(&pi, PC, 0x7000000, tr, sizeof(tr));
		switch (r->cls) {
		case EMU:
			CHECK(pi.pi_tramp_len == 0 && n == 0, "%s: trampoline %u", r->name,
			      pi.pi_tramp_len);
			break;
		case OOL:
			CHECK(pi.pi_tramp_len == 8 && pi.pi_tramp_bp == 5 && n == 8 &&
				  get32(tr) == r->w && get32(tr + 4) == BRK,
			      "%s: out-of-line copy (%u, %u, %zu)", r->name, pi.pi_tramp_len,
			      pi.pi_tramp_bp, n);
			break;
		case LIT:
			CHECK(pi.pi_tramp_len == 8 && pi.pi_tramp_bp == 5 && n == 8 &&
				  get32(tr + 4) == BRK,
			      "%s: rewritten copy", r->name);
			break;
		case GONE:
			CHECK(pi.pi_tramp_len == 4 && pi.pi_tramp_bp == 0 && n == 4 &&
				  get32(tr) == r->w,
			      "%s: copy", r->name);
			break;
		default:
			break;
		}
		CHECK(tr[n] == 0xee, "%s: trampoline overrun", r->name);
		/* too small a buffer: nothing written */
		if (pi.pi_tramp_len != 0)
			CHECK(isa_probe_tramp(&pi, PC, 0x7000000, tr, pi.pi_tramp_len - 1) == 0,
			      "%s: short buffer", r->name);
	}
	/* a misaligned pc is no instruction */
	{
		uint8_t b[4];
		isa_probe_insn_t pi;

		put32(b, 0xd503201f);
		CHECK(isa_probe_prepare(b, 4, PC + 2, &pi) == -1, "misaligned pc prepared");
	}
}

/* ---- stepping on register images ---- */

#define SP0 (FAKE_LO + 0x8000)
#define TRAMP 0x7000000u

static isa_regs_t
image(void)
{
	isa_regs_t r;
	int i;

	for (i = 0; i < 31; i++)
		r.r[i] = 0x1000000000000000ull * (uint64_t)(i % 7) + 0x0101010101ull * (uint64_t)i;
	r.r[ISA_REG_SP] = SP0;
	r.r[ISA_REG_PC] = PC;
	r.r[ISA_REG_PSTATE] = 0;
	return r;
}

/* Prepare w at PC and step it on *regs; returns the step's result. */
static int
step(const char *name, uint32_t w, isa_regs_t *regs, uint64_t *save, uintptr_t *fa)
{
	uint8_t b[4];
	isa_probe_insn_t pi;

	put32(b, w);
	if (isa_probe_prepare(b, 4, PC, &pi) != 0) {
		CHECK(0, "%s: refused", name);
		return -1;
	}
	*fa = 0;
	return isa_probe_step(&pi, PC, TRAMP, regs, save, fa);
}

/* Step and expect ISA_STEP_DONE and only the listed changes. */
typedef struct change {
	int reg;
	uint64_t v;
} change_t;

static void
expect(const char *name, uint32_t w, isa_regs_t in, const change_t *ch, size_t nch)
{
	isa_regs_t want = in, got = in;
	uint64_t save = 0;
	uintptr_t fa;
	int rc, i;
	size_t k;

	for (k = 0; k < nch; k++)
		want.r[ch[k].reg] = ch[k].v;
	rc = step(name, w, &got, &save, &fa);
	CHECK(rc == ISA_STEP_DONE, "%s: step returned %d", name, rc);
	for (i = 0; i < ISA_NREGS; i++)
		CHECK(got.r[i] == want.r[i], "%s: r[%d] %#" PRIx64 ", want %#" PRIx64, name, i,
		      got.r[i], want.r[i]);
}

#define EXPECT(name, w, in, ...)                                                                   \
	do {                                                                                       \
		const change_t ch_[] = {__VA_ARGS__};                                              \
		expect(name, w, in, ch_, sizeof(ch_) / sizeof(ch_[0]));                            \
	} while (0)

static void
expect_fault(const char *name, uint32_t w, isa_regs_t in, uintptr_t want_addr)
{
	isa_regs_t got = in;
	uint64_t save = 0;
	uintptr_t fa;
	int rc = step(name, w, &got, &save, &fa);

	CHECK(rc == ISA_STEP_FAULT, "%s: step returned %d", name, rc);
	CHECK(fa == want_addr, "%s: fault at %#lx, want %#lx", name, (unsigned long)fa,
	      (unsigned long)want_addr);
	CHECK(memcmp(&got, &in, sizeof(in)) == 0, "%s: registers changed", name);
}

/* ARM ARM ConditionHolds, written from the table of condition codes. */
static bool
ref_cond(unsigned cond, unsigned nzcv)
{
	bool n = nzcv & 8, z = nzcv & 4, c = nzcv & 2, v = nzcv & 1;
	static const char *const names[16] = {"eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc",
					      "hi", "ls", "ge", "lt", "gt", "le", "al", "nv"};
	const char *s = names[cond];

	if (!strcmp(s, "eq"))
		return z;
	if (!strcmp(s, "ne"))
		return !z;
	if (!strcmp(s, "cs"))
		return c;
	if (!strcmp(s, "cc"))
		return !c;
	if (!strcmp(s, "mi"))
		return n;
	if (!strcmp(s, "pl"))
		return !n;
	if (!strcmp(s, "vs"))
		return v;
	if (!strcmp(s, "vc"))
		return !v;
	if (!strcmp(s, "hi"))
		return c && !z;
	if (!strcmp(s, "ls"))
		return !c || z;
	if (!strcmp(s, "ge"))
		return n == v;
	if (!strcmp(s, "lt"))
		return n != v;
	if (!strcmp(s, "gt"))
		return !z && n == v;
	if (!strcmp(s, "le"))
		return z || n != v;
	return true;
}

static void
test_branches(void)
{
	isa_regs_t r = image();
	unsigned cond, f;

	EXPECT("b +0x100", 0x14000040, r, {ISA_REG_PC, PC + 0x100});
	EXPECT("b -8", 0x17fffffe, r, {ISA_REG_PC, PC - 8});
	EXPECT("bl +0x40", 0x94000010, r, {ISA_REG_PC, PC + 0x40}, {30, PC + 4});
	/* b with the largest displacements */
	EXPECT("b +128MiB-4", 0x15ffffff, r, {ISA_REG_PC, PC + 0x7fffffc});
	EXPECT("b -128MiB", 0x16000000, r, {ISA_REG_PC, PC - 0x8000000ull});

	for (cond = 0; cond < 16; cond++)
		for (f = 0; f < 16; f++) {
			char name[48];
			isa_regs_t in = image();
			bool t = ref_cond(cond, f);

			snprintf(name, sizeof(name), "b.cond %u nzcv %x", cond, f);
			in.r[ISA_REG_PSTATE] = (uint64_t)f << 28 | 0x3c0;
			/* b.<cond> +0x20 and bc.<cond> */
			EXPECT(name, 0x54000100 | cond, in, {ISA_REG_PC, t ? PC + 0x20 : PC + 4});
			EXPECT(name, 0x54000110 | cond, in, {ISA_REG_PC, t ? PC + 0x20 : PC + 4});
		}

	/* cbz/cbnz: W looks at the low half only */
	r.r[3] = 0xffffffff00000000ull;
	EXPECT("cbz w3 (low half zero)", 0x34000103, r, {ISA_REG_PC, PC + 0x20});
	EXPECT("cbz x3 (upper half set)", 0xb4000103, r, {ISA_REG_PC, PC + 4});
	EXPECT("cbnz x3", 0xb5000103, r, {ISA_REG_PC, PC + 0x20});
	EXPECT("cbnz w3", 0x35000103, r, {ISA_REG_PC, PC + 4});
	EXPECT("cbz xzr", 0xb400011f, r, {ISA_REG_PC, PC + 0x20});
	EXPECT("cbnz x3 -4", 0xb5ffffe3, r, {ISA_REG_PC, PC - 4});
	/* tbz/tbnz: bit 63 (b5 set) and bit 3 */
	r.r[9] = 0x8000000000000008ull;
	EXPECT("tbnz x9, #63", 0xb7f80109, r, {ISA_REG_PC, PC + 0x20});
	EXPECT("tbz x9, #63", 0xb6f80109, r, {ISA_REG_PC, PC + 4});
	EXPECT("tbz w9, #3", 0x36180109, r, {ISA_REG_PC, PC + 4});
	EXPECT("tbz w9, #2", 0x36100109, r, {ISA_REG_PC, PC + 0x20});
	EXPECT("tbz w9, #2, -0x8000", 0x36140009, r, {ISA_REG_PC, PC - 0x8000});
	/* register branches */
	r = image();
	r.r[1] = 0x12345678;
	EXPECT("br x1", 0xd61f0020, r, {ISA_REG_PC, 0x12345678});
	EXPECT("blr x1", 0xd63f0020, r, {ISA_REG_PC, 0x12345678}, {30, PC + 4});
	r.r[30] = 0x55550000;
	EXPECT("blr x30: target read first", 0xd63f03c0, r, {ISA_REG_PC, 0x55550000},
	       {30, PC + 4});
	EXPECT("ret", 0xd65f03c0, r, {ISA_REG_PC, 0x55550000});
	EXPECT("ret x1", 0xd65f0020, r, {ISA_REG_PC, 0x12345678});
	EXPECT("br xzr", 0xd61f03e0, r, {ISA_REG_PC, 0});
}

static void
test_pcrel(void)
{
	isa_regs_t r = image();
	uint8_t b[4];
	uint8_t tr[16];
	isa_probe_insn_t pi;
	uint64_t save = 0;
	uintptr_t fa;
	uintptr_t lit;
	int rc;

	EXPECT("adr x0, +0x11c4", 0x10008e20, r, {0, PC + 0x11c4}, {ISA_REG_PC, PC + 4});
	EXPECT("adr x29, -0x77", 0x30fffc5d, r, {29, PC - 0x77}, {ISA_REG_PC, PC + 4});
	EXPECT("adr xzr: nothing written", 0x10008e3f, r, {ISA_REG_PC, PC + 4});
	EXPECT("adrp x1, +0x12345 pages", 0xb0091a21, r, {1, PC + 0x12345000ull},
	       {ISA_REG_PC, PC + 4});
	EXPECT("adrp x2, -1 page", 0xf0ffffe2, r, {2, PC - 0x1000}, {ISA_REG_PC, PC + 4});
	/* adrp rounds the PC down to its page: run it at PC + 0xffc */
	{
		isa_probe_insn_t p2;
		isa_regs_t g = r;

		put32(b, 0xb0091a21);
		CHECK(isa_probe_prepare(b, 4, PC + 0xffc, &p2) == 0 &&
			  isa_probe_step(&p2, PC + 0xffc, TRAMP, &g, &save, &fa) == ISA_STEP_DONE &&
			  g.r[1] == PC + 0x12345000ull && g.r[ISA_REG_PC] == PC + 0x1000,
		      "adrp at the end of a page: %#" PRIx64, g.r[1]);
	}

	/* Literal loads: run the instruction at an address near the fake
	 * memory so the literal is there. */
	lit = FAKE_LO + 0x100;
	fake_put64(lit, 0x80000000fffffff0ull);
	fake_put64(lit + 8, 0x1122334455667788ull);
	{
		static const struct {
			const char *name;
			uint32_t w; /* literal at pc + 0x100 */
			int rt;
			uint64_t want;
		} lits[] = {
		    {"ldr w3, lit", 0x18000803, 3, 0xfffffff0},
		    {"ldr x4, lit", 0x58000804, 4, 0x80000000fffffff0ull},
		    {"ldrsw x5, lit", 0x98000805, 5, 0xfffffffffffffff0ull},
		    {"ldrsw x5, lit+4 (positive)", 0x98000825, 5, 0xffffffff80000000ull},
		    {"ldr x6, lit+8", 0x58000846, 6, 0x1122334455667788ull},
		};
		size_t i;

		for (i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
			isa_regs_t g = image();

			put32(b, lits[i].w);
			g.r[ISA_REG_PC] = FAKE_LO;
			CHECK(isa_probe_prepare(b, 4, FAKE_LO, &pi) == 0, "%s: refused",
			      lits[i].name);
			rc = isa_probe_step(&pi, FAKE_LO, TRAMP, &g, &save, &fa);
			CHECK(rc == ISA_STEP_DONE && g.r[lits[i].rt] == lits[i].want &&
				  g.r[ISA_REG_PC] == FAKE_LO + 4,
			      "%s: %d, %#" PRIx64, lits[i].name, rc, g.r[lits[i].rt]);
		}
	}
	/* A literal in unmapped memory faults at its address; prfm never loads. */
	r = image();
	expect_fault("ldr x4, unmapped literal", 0x58000804, r, PC + 0x100);
	expect_fault("ldr w3, unmapped literal", 0x18000803, r, PC + 0x100);
	EXPECT("prfm, unmapped literal", 0xd8000800, r, {ISA_REG_PC, PC + 4});
	expect_fault("ldr xzr, unmapped literal: still loads", 0x5800081f, r, PC + 0x100);

	/* SIMD&FP literals run as ldr <t>, [x16] with x16 borrowed */
	{
		static const struct {
			const char *name;
			uint32_t w, rewritten;
		} simd[] = {
		    {"ldr s0, lit", 0x1c000800, 0xbd400200},
		    {"ldr d1, lit", 0x5c000801, 0xfd400201},
		    {"ldr q31, lit", 0x9c00081f, 0x3dc0021f},
		};
		size_t i;

		for (i = 0; i < sizeof(simd) / sizeof(simd[0]); i++) {
			isa_regs_t g = image(), before;

			put32(b, simd[i].w);
			CHECK(isa_probe_prepare(b, 4, PC, &pi) == 0, "%s: refused", simd[i].name);
			CHECK(isa_probe_tramp(&pi, PC, TRAMP, tr, sizeof(tr)) == 8 &&
				  get32(tr) == simd[i].rewritten && get32(tr + 4) == BRK,
			      "%s: trampoline %08x", simd[i].name, get32(tr));
			before = g;
			save = 0;
			rc = isa_probe_step(&pi, PC, TRAMP, &g, &save, &fa);
			CHECK(rc == ISA_STEP_TRAMP && g.r[16] == PC + 0x100 && save == before.r[16] &&
				  g.r[ISA_REG_PC] == TRAMP,
			      "%s: step", simd[i].name);
			isa_probe_step_done(&pi, PC, &g, save);
			before.r[ISA_REG_PC] = PC + 4;
			CHECK(memcmp(&g, &before, sizeof(g)) == 0, "%s: step_done", simd[i].name);
		}
	}
}

static void
test_frames(void)
{
	isa_regs_t r = image();
	uint64_t sp = SP0;

	r.r[29] = 0x2929292929292929ull;
	r.r[30] = 0x3030303030303030ull;
	memset(fake_mem, 0, sizeof(fake_mem));
	EXPECT("stp x29, x30, [sp, #-32]!", 0xa9be7bfd, r, {ISA_REG_SP, sp - 32},
	       {ISA_REG_PC, PC + 4});
	CHECK(fake_get64(sp - 32) == r.r[29] && fake_get64(sp - 24) == r.r[30],
	      "stp pre-index: memory");
	EXPECT("stp x19, x20, [sp, #16]", 0xa90153f3, r, {ISA_REG_PC, PC + 4});
	CHECK(fake_get64(sp + 16) == r.r[19] && fake_get64(sp + 24) == r.r[20],
	      "stp offset: memory");
	fake_put64(sp, 0xaaaa);
	fake_put64(sp + 8, 0xbbbb);
	EXPECT("ldp x29, x30, [sp], #32", 0xa8c27bfd, r, {29, 0xaaaa}, {30, 0xbbbb},
	       {ISA_REG_SP, sp + 32}, {ISA_REG_PC, PC + 4});
	EXPECT("ldp x19, x20, [sp, #16]", 0xa94153f3, r, {19, r.r[19]}, {20, r.r[20]},
	       {ISA_REG_PC, PC + 4});
	r.r[0] = sp + 0x100;
	EXPECT("stp xzr, x1, [x0, #-8]", 0xa93f841f, r, {ISA_REG_PC, PC + 4});
	CHECK(fake_get64(sp + 0xf8) == 0 && fake_get64(sp + 0x100) == r.r[1],
	      "stp xzr: memory");
	EXPECT("ldp xzr, x1, [x0, #-8] writes x1 only", 0xa97f841f, r, {1, r.r[1]},
	       {ISA_REG_PC, PC + 4});

	EXPECT("sub sp, sp, #0x40", 0xd10103ff, r, {ISA_REG_SP, sp - 0x40}, {ISA_REG_PC, PC + 4});
	EXPECT("mov x29, sp", 0x910003fd, r, {29, sp}, {ISA_REG_PC, PC + 4});
	EXPECT("add sp, sp, #1, lsl #12", 0x914007ff, r, {ISA_REG_SP, sp + 0x1000},
	       {ISA_REG_PC, PC + 4});
	EXPECT("sub x3, x4, #0xfff", 0xd13ffc83, r, {3, r.r[4] - 0xfff}, {ISA_REG_PC, PC + 4});
	EXPECT("mov x0, x1", 0xaa0103e0, r, {0, r.r[1]}, {ISA_REG_PC, PC + 4});
	EXPECT("mov x1, xzr", 0xaa1f03e1, r, {1, 0}, {ISA_REG_PC, PC + 4});
	EXPECT("nop", 0xd503201f, r, {ISA_REG_PC, PC + 4});

	/* faults: a stack below the fake memory, a base pointer nowhere */
	r.r[ISA_REG_SP] = FAKE_LO + 16;
	expect_fault("stp x29, x30, [sp, #-32]! below the stack", 0xa9be7bfd, r, FAKE_LO - 16);
	r.r[ISA_REG_SP] = FAKE_LO + FAKE_SIZE - 8;
	expect_fault("ldp x29, x30, [sp], #32 across the end", 0xa8c27bfd, r,
		     FAKE_LO + FAKE_SIZE);
	r.r[0] = 0x1000;
	expect_fault("stp xzr, x1, [x0, #-8] nowhere", 0xa93f841f, r, 0xff8);
}

static void
test_ool(void)
{
	uint8_t b[4], tr[16];
	isa_probe_insn_t pi, zero;
	isa_regs_t r = image(), before = r;
	uint64_t save = 0;
	uintptr_t fa = 0;

	put32(b, 0x8b020020); /* add x0, x1, x2 */
	CHECK(isa_probe_prepare(b, 4, PC, &pi) == 0, "add: refused");
	CHECK(isa_probe_tramp(&pi, PC, TRAMP, tr, sizeof(tr)) == 8, "add: trampoline");
	CHECK(isa_probe_step(&pi, PC, TRAMP, &r, &save, &fa) == ISA_STEP_TRAMP &&
		  r.r[ISA_REG_PC] == TRAMP,
	      "add: step");
	r.r[0] = 77; /* what the copy did */
	isa_probe_step_done(&pi, PC, &r, save);
	before.r[0] = 77;
	before.r[ISA_REG_PC] = PC + 4;
	CHECK(memcmp(&r, &before, sizeof(r)) == 0, "add: step_done");

	put32(b, 0xd65f0bff); /* retaa */
	r = image();
	CHECK(isa_probe_prepare(b, 4, PC, &pi) == 0 &&
		  isa_probe_step(&pi, PC, TRAMP, &r, &save, &fa) == ISA_STEP_TRAMP &&
		  r.r[ISA_REG_PC] == TRAMP,
	      "retaa: step");

	memset(&zero, 0, sizeof(zero));
	r = image();
	CHECK(isa_probe_step(&zero, PC, TRAMP, &r, &save, &fa) == ISA_STEP_FAULT && fa == PC,
	      "zeroed isa_probe_insn_t");
}

/* ---- function sites ---- */

typedef struct sites {
	size_t off[64];
	int kind[64];
	int n;
	int stop_at; /* return non-zero at this callback (-1: never) */
} sites_t;

static int
collect(size_t off, int kind, void *arg)
{
	sites_t *s = arg;

	if (s->n < 64) {
		s->off[s->n] = off;
		s->kind[s->n] = kind;
	}
	s->n++;
	return s->n - 1 == s->stop_at ? 42 : 0;
}

/* Run isa_func_sites on words[] at base PC and compare with the
 * expected return offsets (every word is a boundary). */
static void
check_sites(const char *name, const uint32_t *words, size_t nw, const size_t *rets, size_t nret)
{
	uint8_t code[256];
	sites_t s = {{0}, {0}, 0, -1};
	size_t i, k = 0, want_n = nw + nret;
	int rc;

	for (i = 0; i < nw; i++)
		put32(code + 4 * i, words[i]);
	rc = isa_func_sites(code, 4 * nw, PC, collect, &s);
	CHECK(rc == 0, "%s: rc %d", name, rc);
	CHECK((size_t)s.n == want_n, "%s: %d sites, want %zu", name, s.n, want_n);
	for (i = 0; i < nw && k < (size_t)s.n; i++) {
		CHECK(s.kind[k] == ISA_SITE_INSN && s.off[k] == 4 * i, "%s: boundary %zu", name,
		      4 * i);
		k++;
		if (k < (size_t)s.n && s.kind[k] == ISA_SITE_RETURN) {
			bool want = false;
			size_t j;

			for (j = 0; j < nret; j++)
				want |= rets[j] == 4 * i;
			CHECK(want && s.off[k] == 4 * i, "%s: unexpected return site at %zu", name,
			      s.off[k]);
			k++;
		} else {
			size_t j;

			for (j = 0; j < nret; j++)
				CHECK(rets[j] != 4 * i, "%s: missing return site at %zu", name,
				      4 * i);
		}
	}
}

#define SITES(name, words, ...)                                                                    \
	do {                                                                                       \
		const size_t r_[] = {__VA_ARGS__};                                                 \
		check_sites(name, words, sizeof(words) / sizeof(words[0]), r_,                     \
			    sizeof(r_) / sizeof(r_[0]));                                           \
	} while (0)

static void
test_sites(void)
{
	/* add w0, w0, w1; ret */
	static const uint32_t leaf[] = {0x0b010000, 0xd65f03c0};
	/* stp x29,x30,[sp,#-16]!; mov x29,sp; cbz w0,+16 (inside); bl +0x100;
	 * ldp x29,x30,[sp],#16; b +0x200 (out: tail call); ldp x29,x30,[sp],#16;
	 * ret */
	static const uint32_t frame[] = {0xa9bf7bfd, 0x910003fd, 0x34000080, 0x94000040,
					 0xa8c17bfd, 0x14000080, 0xa8c17bfd, 0xd65f03c0};
	/* cmp w0,#3; b.gt +0x400 (out); cbnz x1,-4 (inside); tbz w2,#1,-0x100 (out);
	 * b -8 (inside); ret x3 */
	static const uint32_t cond[] = {0x71000c1f, 0x5400200c, 0xb5ffffe1,
					0x360ff802, 0x17fffffe, 0xd65f0060};
	/* mov x16, x2; br x16 (tail call); br x3 (switch); braaz x17; br x17; retab;
	 * b +4 (the next instruction: inside); b +8 (the end: outside) */
	static const uint32_t ind[] = {0xaa0203f0, 0xd61f0200, 0xd61f0060, 0xd61f0a3f,
				       0xd61f0220, 0xd65f0fff, 0x14000001, 0x14000002};

	SITES("leaf", leaf, 4);
	SITES("frame with a tail call", frame, 20, 28);
	SITES("conditional tail calls", cond, 4, 12, 20);
	SITES("indirect branches", ind, 4, 12, 16, 20, 28);

	/* Functions that do not decode report nothing, returns included. */
	{
		static const uint32_t bad[] = {0xd65f03c0, 0x02000000, 0xd65f03c0};
		uint8_t code[16];
		sites_t s = {{0}, {0}, 0, -1};
		int i;

		for (i = 0; i < 3; i++)
			put32(code + 4 * i, bad[i]);
		CHECK(isa_func_sites(code, 12, PC, collect, &s) == -1 && s.n == 0,
		      "unallocated word: rc or %d sites", s.n);
		CHECK(isa_func_sites(code, 6, PC, collect, &s) == -1 && s.n == 0,
		      "size not a multiple of 4");
		/* a callback's non-zero return stops the walk */
		s.stop_at = 1;
		CHECK(isa_func_sites(code, 4, PC, collect, &s) == 42 && s.n == 2,
		      "stop: %d sites", s.n);
	}
}

int
main(void)
{
	test_rows();
	test_branches();
	test_pcrel();
	test_frames();
	test_ool();
	test_sites();
	return isa_test_exit("isa_insn_aarch64");
}
