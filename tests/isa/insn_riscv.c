/*
 * tests/isa/insn_riscv.c: isa/riscv/insn.c on this machine, over
 * instruction tables.
 *
 * The file under test is built for the host with isa/riscv's headers; its
 * memory accesses go to fake_memory.h.  Checked:
 *   - isa_insn_decode: lengths (2 and 4), flags and direct targets of the
 *     full-size and compressed forms, reserved and unknown encodings;
 *   - isa_probe_prepare / isa_probe_tramp: emulated, out of line (copy in
 *     its own width + ebreak) or refused, and the trampoline bytes;
 *   - isa_probe_step / isa_probe_step_done on register images: every
 *     PC-relative form (auipc, jal, jalr, the six branches with signed and
 *     unsigned operands, c.j, c.jr, c.jalr, c.beqz, c.bnez) and the emulated
 *     prologue/epilogue forms, x0 read as zero whatever the image holds,
 *     and the fault contract;
 *   - isa_func_sites on hand-assembled functions mixing both widths.
 * The encodings were taken from GNU as (riscv64-linux-gnu-as -march=rv64gc).
 */
#include <stdlib.h>
#include <string.h>

#include "fake_memory.h"
#include "isa.h"
#include "isa_test.h"

#define PC 0x400000u
#define TRAMP 0x7000000u

enum cls { BAD, EMU, OOL, NONE };

typedef struct row {
	const char *name;
	uint32_t w; /* a halfword when len is 2 */
	uint8_t len;
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
	{"c.nop", 0x0001, 2, 0, 0, EMU},
	{"c.addi a0, -3", 0x1575, 2, 0, 0, EMU},
	{"c.li a1, 17", 0x45c5, 2, 0, 0, EMU},
	{"c.addi16sp sp, -64", 0x7139, 2, 0, 0, EMU},
	{"c.addi4spn s0, sp, 24", 0x0820, 2, 0, 0, EMU},
	{"c.mv a0, a1", 0x852e, 2, 0, 0, EMU},
	{"c.ldsp ra, 8(sp)", 0x60a2, 2, 0, 0, EMU},
	{"c.sdsp ra, 8(sp)", 0xe406, 2, 0, 0, EMU},
	{"c.ld a0, 16(s1)", 0x6888, 2, 0, 0, EMU},
	{"c.sd a0, 16(s1)", 0xe888, 2, 0, 0, EMU},
	{"c.j +0x2c", 0xa035, 2, JMP, 0x2c, EMU},
	{"c.j -0x26", 0xbfe9, 2, JMP, -0x26, EMU},
	{"c.jr ra", 0x8082, 2, RET, 0, EMU},
	{"c.jr a5", 0x8782, 2, JMP | IND, 0, EMU},
	{"c.jalr a5", 0x9782, 2, CALL | IND, 0, EMU},
	{"c.beqz a0, +2", 0xc109, 2, JCC, 2, EMU},
	{"c.bnez s1, -0x40", 0xf0e1, 2, JCC, -0x40, EMU},
	{"c.ebreak", 0x9002, 2, TRAP, 0, NONE},
	{"c.add a0, a1", 0x952e, 2, 0, 0, OOL},
	{"c.lui a0, 1", 0x6505, 2, 0, 0, OOL},
	{"c.lw a0, 4(s1)", 0x40c8, 2, 0, 0, OOL},
	{"c.slli a0, 3", 0x050e, 2, 0, 0, OOL},
	{"c.fld fa0, 8(s1)", 0x2488, 2, 0, 0, OOL},
	{"c.addiw a0, 1", 0x2505, 2, 0, 0, OOL},
	{"c.sub a0, a1", 0x8d0d, 2, 0, 0, OOL},
	{"nop", 0x00000013, 4, 0, 0, EMU},
	{"addi sp, sp, -48", 0xfd010113, 4, 0, 0, EMU},
	{"li a0, 5", 0x00500513, 4, 0, 0, EMU},
	{"sd ra, 40(sp)", 0x02113423, 4, 0, 0, EMU},
	{"ld ra, 40(sp)", 0x02813083, 4, 0, 0, EMU},
	{"ld zero, 0(a0) (still a load)", 0x00053003, 4, 0, 0, OOL},
	{"auipc a0, 0x12345", 0x12345517, 4, REL, 0, EMU},
	{"auipc t1, 0xfffff", 0xfffff317, 4, REL, 0, EMU},
	{"auipc zero, 1", 0x00001017, 4, REL, 0, EMU},
	{"jal ra, +0x7aa", 0x7aa000ef, 4, CALL, 0x7aa, EMU},
	{"jal zero, -0x85a", 0xfa6ff06f, 4, JMP, -0x85a, EMU},
	{"jalr zero, 0(ra)", 0x00008067, 4, RET, 0, EMU},
	{"jalr ra, 16(a5)", 0x010780e7, 4, CALL | IND, 0, EMU},
	{"jalr zero, -8(t1)", 0xff830067, 4, JMP | IND, 0, EMU},
	{"jalr t0, 0(t0)", 0x000282e7, 4, CALL | IND, 0, EMU},
	{"beq a0, a1, +0x92", 0x08b50963, 4, JCC, 0x92, EMU},
	{"bne a0, zero, -0x172", 0xe80517e3, 4, JCC, -0x172, EMU},
	{"blt a0, a1, -0x56", 0xfab545e3, 4, JCC, -0x56, EMU},
	{"bge a0, a1, -0x5a", 0xfab553e3, 4, JCC, -0x5a, EMU},
	{"bltu a0, a1, -0x5e", 0xfab561e3, 4, JCC, -0x5e, EMU},
	{"bgeu a0, a1, -0x62", 0xf8b57fe3, 4, JCC, -0x62, EMU},
	{"ebreak", 0x00100073, 4, TRAP, 0, NONE},
	{"ecall", 0x00000073, 4, TRAP, 0, OOL},
	{"mret", 0x30200073, 4, TRAP, 0, NONE},
	{"wfi", 0x10500073, 4, TRAP, 0, NONE},
	{"sfence.vma", 0x12000073, 4, TRAP, 0, NONE},
	{"lr.d a0, (a1)", 0x1005b52f, 4, 0, 0, NONE},
	{"sc.w a2, a0, (a1)", 0x18a5a62f, 4, 0, 0, NONE},
	{"amoadd.d a0, a1, (a2)", 0x00b6352f, 4, 0, 0, OOL},
	{"csrr a0, cycle", 0xc0002573, 4, 0, 0, OOL},
	{"fence", 0x0ff0000f, 4, 0, 0, OOL},
	{"fence.i", 0x0000100f, 4, 0, 0, OOL},
	{"fld fa0, 8(a0)", 0x00853507, 4, 0, 0, OOL},
	{"fadd.d fa0, fa1, fa2", 0x02c5f553, 4, 0, 0, OOL},
	{"mul a0, a1, a2", 0x02c58533, 4, 0, 0, OOL},
	{"lui a0, 0x12345", 0x12345537, 4, 0, 0, OOL},
	{"addiw a0, a0, 1", 0x0015051b, 4, 0, 0, OOL},
	{"sw a0, 4(sp)", 0x00a12223, 4, 0, 0, OOL},
	{"lw a0, 4(sp)", 0x00412503, 4, 0, 0, OOL},
	{"illegal 0x0000", 0x0000, 2, 0, 0, BAD},
	{"c.addi16sp 0 (reserved)", 0x6101, 2, 0, 0, BAD},
	{"c.lui a0, 0 (reserved)", 0x6501, 2, 0, 0, BAD},
	{"c.jr x0 (reserved)", 0x8002, 2, 0, 0, BAD},
	{"c.ldsp x0 (reserved)", 0x6002, 2, 0, 0, BAD},
	{"c.lwsp x0 (reserved)", 0x4002, 2, 0, 0, BAD},
	{"c.addiw x0 (reserved)", 0x2001, 2, 0, 0, BAD},
	{"custom-0", 0x0000000b, 4, 0, 0, BAD},
	{"branch funct3 010", 0x00002063, 4, 0, 0, BAD},
	{"jalr funct3 001", 0x00001067, 4, 0, 0, BAD},
	{"load funct3 111", 0x00007003, 4, 0, 0, BAD},
	{"store funct3 100", 0x00004023, 4, 0, 0, BAD},
	{"48-bit encoding", 0x0000001f, 4, 0, 0, BAD},
	{"all ones", 0xffffffff, 4, 0, 0, BAD},
};
/* clang-format on */

static void
put(uint8_t *b, uint32_t w, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = (uint8_t)(w >> (8 * i));
}

static uint32_t
get(const uint8_t *b, size_t len)
{
	uint32_t w = 0;
	size_t i;

	for (i = 0; i < len; i++)
		w |= (uint32_t)b[i] << (8 * i);
	return w;
}

#define EBREAK 0x00100073u

static void
test_rows(void)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const row_t *r = &rows[i];
		uint8_t b[8], tr[32];
		isa_insn_t in;
		isa_probe_insn_t pi;
		size_t n;
		int rc;

		memset(b, 0, sizeof(b));
		put(b, r->w, r->len);
		rc = isa_insn_decode(b, r->len, PC, &in);
		if (r->cls == BAD) {
			CHECK(rc == -1, "%s: decoded", r->name);
			CHECK(isa_probe_prepare(b, r->len, PC, &pi) == -1, "%s: prepared", r->name);
			continue;
		}
		CHECK(rc == 0, "%s: not decoded", r->name);
		if (rc != 0)
			continue;
		CHECK(in.ii_len == r->len, "%s: length %u", r->name, in.ii_len);
		CHECK(in.ii_flags == r->flags, "%s: flags %#x, want %#x", r->name, in.ii_flags,
		      r->flags);
		CHECK(in.ii_target == (r->target ? PC + (uint64_t)r->target : 0),
		      "%s: target %#" PRIx64, r->name, in.ii_target);
		/* more bytes than the instruction change nothing; fewer fail */
		CHECK(isa_insn_decode(b, 8, PC, &in) == 0 && in.ii_len == r->len,
		      "%s: with trailing bytes", r->name);
		CHECK(isa_insn_decode(b, r->len - 1u, PC, &in) == -1, "%s: decoded short",
		      r->name);

		rc = isa_probe_prepare(b, r->len, PC, &pi);
		if (r->cls == NONE) {
			CHECK(rc == -1, "%s: not refused", r->name);
			continue;
		}
		CHECK(rc == 0, "%s: refused", r->name);
		if (rc != 0)
			continue;
		CHECK(pi.pi_len == r->len && get(pi.pi_orig, r->len) == r->w, "%s: original",
		      r->name);
		memset(tr, 0xee, sizeof(tr));
		n = isa_probe_tramp(&pi, PC, TRAMP, tr, sizeof(tr));
		if (r->cls == EMU) {
			CHECK(pi.pi_tramp_len == 0 && n == 0, "%s: trampoline %u", r->name,
			      pi.pi_tramp_len);
		} else {
			CHECK(pi.pi_tramp_len == r->len + 4u && pi.pi_tramp_bp == r->len + 1u &&
				  n == pi.pi_tramp_len && get(tr, r->len) == r->w &&
				  get(tr + r->len, 4) == EBREAK && tr[n] == 0xee,
			      "%s: out-of-line copy (%u, %u, %zu)", r->name, pi.pi_tramp_len,
			      pi.pi_tramp_bp, n);
			CHECK(isa_probe_tramp(&pi, PC, TRAMP, tr, n - 1) == 0, "%s: short buffer",
			      r->name);
		}
	}
	{
		uint8_t b[4] = {0x13, 0, 0, 0};
		isa_probe_insn_t pi;

		CHECK(isa_probe_prepare(b, 4, PC + 1, &pi) == -1, "odd pc prepared");
	}
}

/* ---- stepping on register images ---- */

#define SP0 (FAKE_LO + 0x8000)
#define A0 10
#define A1 11
#define A5 15
#define S0 8
#define S1 9
#define T0 5
#define T1 6
#define RA 1
#define SPR 2

static isa_regs_t
image(void)
{
	isa_regs_t r;
	int i;

	/* x0's slot holds garbage: the stepper must read it as zero */
	for (i = 0; i < 32; i++)
		r.r[i] = 0x0100000000000000ull * (uint64_t)(i % 5) + 0x0101010101ull * (uint64_t)i +
			 0x77;
	r.r[SPR] = SP0;
	r.r[ISA_REG_PC] = PC;
	return r;
}

typedef struct change {
	int reg;
	uint64_t v;
} change_t;

static void
expect(const char *name, uint32_t w, size_t len, isa_regs_t in, const change_t *ch, size_t nch)
{
	isa_regs_t want = in, got = in;
	isa_probe_insn_t pi;
	uint8_t b[4];
	uint64_t save = 0;
	uintptr_t fa = 0;
	size_t k;
	int rc, i;

	for (k = 0; k < nch; k++)
		want.r[ch[k].reg] = ch[k].v;
	put(b, w, len);
	if (isa_probe_prepare(b, len, PC, &pi) != 0) {
		CHECK(0, "%s: refused", name);
		return;
	}
	rc = isa_probe_step(&pi, PC, TRAMP, &got, &save, &fa);
	CHECK(rc == ISA_STEP_DONE, "%s: step returned %d", name, rc);
	for (i = 0; i < ISA_NREGS; i++)
		CHECK(got.r[i] == want.r[i], "%s: r[%d] %#" PRIx64 ", want %#" PRIx64, name, i,
		      got.r[i], want.r[i]);
}

#define EXPECT(name, w, len, in, ...)                                                              \
	do {                                                                                       \
		const change_t ch_[] = {__VA_ARGS__};                                              \
		expect(name, w, len, in, ch_, sizeof(ch_) / sizeof(ch_[0]));                       \
	} while (0)

static void
expect_fault(const char *name, uint32_t w, size_t len, isa_regs_t in, uintptr_t want_addr)
{
	isa_regs_t got = in;
	isa_probe_insn_t pi;
	uint8_t b[4];
	uint64_t save = 0;
	uintptr_t fa = 0;
	int rc;

	put(b, w, len);
	if (isa_probe_prepare(b, len, PC, &pi) != 0) {
		CHECK(0, "%s: refused", name);
		return;
	}
	rc = isa_probe_step(&pi, PC, TRAMP, &got, &save, &fa);
	CHECK(rc == ISA_STEP_FAULT && fa == want_addr, "%s: %d at %#lx, want %#lx", name, rc,
	      (unsigned long)fa, (unsigned long)want_addr);
	CHECK(memcmp(&got, &in, sizeof(in)) == 0, "%s: registers changed", name);
}

static void
test_jumps(void)
{
	isa_regs_t r = image();

	EXPECT("c.j +0x2c", 0xa035, 2, r, {ISA_REG_PC, PC + 0x2c});
	EXPECT("c.j -0x26", 0xbfe9, 2, r, {ISA_REG_PC, PC - 0x26});
	EXPECT("jal ra, +0x7aa", 0x7aa000ef, 4, r, {ISA_REG_PC, PC + 0x7aa}, {RA, PC + 4});
	EXPECT("jal zero, -0x85a", 0xfa6ff06f, 4, r, {ISA_REG_PC, PC - 0x85a});
	/* jal's extremes: +1MiB-2 and -1MiB */
	EXPECT("jal zero, +0xffffe", 0x7ffff06f, 4, r, {ISA_REG_PC, PC + 0xffffe});
	EXPECT("jal zero, -0x100000", 0x8000006f, 4, r, {ISA_REG_PC, PC - 0x100000});

	r.r[RA] = 0x5550;
	r.r[A5] = 0x6661; /* odd: jalr clears bit 0 */
	r.r[T1] = 0x7778;
	r.r[T0] = 0x8880;
	EXPECT("ret", 0x00008067, 4, r, {ISA_REG_PC, 0x5550});
	EXPECT("c.jr ra", 0x8082, 2, r, {ISA_REG_PC, 0x5550});
	EXPECT("c.jr a5", 0x8782, 2, r, {ISA_REG_PC, 0x6660});
	EXPECT("c.jalr a5", 0x9782, 2, r, {ISA_REG_PC, 0x6660}, {RA, PC + 2});
	EXPECT("jalr ra, 16(a5)", 0x010780e7, 4, r, {ISA_REG_PC, 0x6670}, {RA, PC + 4});
	EXPECT("jalr zero, -8(t1)", 0xff830067, 4, r, {ISA_REG_PC, 0x7770});
	EXPECT("jalr t0, 0(t0): target read first", 0x000282e7, 4, r, {ISA_REG_PC, 0x8880},
	       {T0, PC + 4});
}

static void
test_branches(void)
{
	static const struct {
		const char *name;
		uint32_t w; /* +0x20, a0 vs a1 */
	} br[] = {
	    {"beq", 0x02b50063}, {"bne", 0x02b51063},  {"blt", 0x02b54063},
	    {"bge", 0x02b55063}, {"bltu", 0x02b56063}, {"bgeu", 0x02b57063},
	};
	static const struct {
		uint64_t a, b;
		bool taken[6]; /* beq bne blt bge bltu bgeu */
	} ops[] = {
	    {5, 5, {true, false, false, true, false, true}},
	    {(uint64_t)-1, 1, {false, true, true, false, false, true}},
	    {1, (uint64_t)-1, {false, true, false, true, true, false}},
	    {0x8000000000000000ull, 0x7fffffffffffffffull, {false, true, true, false, false, true}},
	};
	size_t i, k;

	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		for (i = 0; i < 6; i++) {
			isa_regs_t r = image();
			char name[64];

			r.r[A0] = ops[k].a;
			r.r[A1] = ops[k].b;
			snprintf(name, sizeof(name), "%s %#" PRIx64 ", %#" PRIx64, br[i].name,
				 ops[k].a, ops[k].b);
			EXPECT(name, br[i].w, 4, r,
			       {ISA_REG_PC, ops[k].taken[i] ? PC + 0x20 : PC + 4});
		}

	{
		isa_regs_t r = image();

		/* x0's slot holds garbage; bne a0, zero compares with 0 */
		r.r[A0] = 0;
		EXPECT("bne a0, zero (a0 0)", 0xe80517e3, 4, r, {ISA_REG_PC, PC + 4});
		r.r[A0] = 3;
		EXPECT("bne a0, zero (a0 3)", 0xe80517e3, 4, r, {ISA_REG_PC, PC - 0x172});
		r.r[A0] = 0;
		r.r[S1] = 0;
		EXPECT("c.beqz a0 (0)", 0xc109, 2, r, {ISA_REG_PC, PC + 2});
		EXPECT("c.bnez s1 (0)", 0xf0e1, 2, r, {ISA_REG_PC, PC + 2});
		r.r[A0] = 1;
		r.r[S1] = 0x100000000ull; /* only the upper half set */
		EXPECT("c.beqz a0 (1)", 0xc109, 2, r, {ISA_REG_PC, PC + 2});
		EXPECT("c.bnez s1 (upper half)", 0xf0e1, 2, r, {ISA_REG_PC, PC - 0x40});
	}
}

static void
test_values(void)
{
	isa_regs_t r = image();
	uint64_t sp = SP0;

	EXPECT("auipc a0, 0x12345", 0x12345517, 4, r, {A0, PC + 0x12345000ull},
	       {ISA_REG_PC, PC + 4});
	EXPECT("auipc t1, 0xfffff", 0xfffff317, 4, r, {T1, PC - 0x1000}, {ISA_REG_PC, PC + 4});
	/* 0x80000: the most negative page, sign-extended to 64 bits */
	EXPECT("auipc a0, 0x80000", 0x80000517, 4, r, {A0, PC - 0x80000000ull},
	       {ISA_REG_PC, PC + 4});
	EXPECT("auipc zero", 0x00001017, 4, r, {ISA_REG_PC, PC + 4});
	EXPECT("nop", 0x00000013, 4, r, {ISA_REG_PC, PC + 4});
	EXPECT("c.nop", 0x0001, 2, r, {ISA_REG_PC, PC + 2});
	EXPECT("addi sp, sp, -48", 0xfd010113, 4, r, {SPR, sp - 48}, {ISA_REG_PC, PC + 4});
	EXPECT("li a0, 5 (x0 read as zero)", 0x00500513, 4, r, {A0, 5}, {ISA_REG_PC, PC + 4});
	EXPECT("c.li a1, 17", 0x45c5, 2, r, {A1, 17}, {ISA_REG_PC, PC + 2});
	EXPECT("c.addi a0, -3", 0x1575, 2, r, {A0, r.r[A0] - 3}, {ISA_REG_PC, PC + 2});
	EXPECT("c.addi16sp sp, -64", 0x7139, 2, r, {SPR, sp - 64}, {ISA_REG_PC, PC + 2});
	EXPECT("c.addi16sp sp, 496", 0x617d, 2, r, {SPR, sp + 496}, {ISA_REG_PC, PC + 2});
	EXPECT("c.addi4spn s0, sp, 24", 0x0820, 2, r, {S0, sp + 24}, {ISA_REG_PC, PC + 2});
	EXPECT("c.addi4spn a5, sp, 1020", 0x1ffc, 2, r, {A5, sp + 1020}, {ISA_REG_PC, PC + 2});
	EXPECT("c.mv a0, a1", 0x852e, 2, r, {A0, r.r[A1]}, {ISA_REG_PC, PC + 2});

	/* stores and loads through the fake memory */
	memset(fake_mem, 0, sizeof(fake_mem));
	r.r[RA] = 0x1234567890abcdefull;
	EXPECT("c.sdsp ra, 8(sp)", 0xe406, 2, r, {ISA_REG_PC, PC + 2});
	CHECK(fake_get64(sp + 8) == r.r[RA], "c.sdsp: memory");
	EXPECT("sd ra, 40(sp)", 0x02113423, 4, r, {ISA_REG_PC, PC + 4});
	CHECK(fake_get64(sp + 40) == r.r[RA], "sd: memory");
	fake_put64(sp + 8, 0xfeedface);
	EXPECT("c.ldsp ra, 8(sp)", 0x60a2, 2, r, {RA, 0xfeedface}, {ISA_REG_PC, PC + 2});
	EXPECT("ld ra, 40(sp)", 0x02813083, 4, r, {RA, r.r[RA]}, {ISA_REG_PC, PC + 4});
	r.r[S1] = sp + 0x100;
	r.r[A0] = 0xa0a0a0a0;
	EXPECT("c.sd a0, 16(s1)", 0xe888, 2, r, {ISA_REG_PC, PC + 2});
	CHECK(fake_get64(sp + 0x110) == 0xa0a0a0a0, "c.sd: memory");
	fake_put64(sp + 0x110, 77);
	EXPECT("c.ld a0, 16(s1)", 0x6888, 2, r, {A0, 77}, {ISA_REG_PC, PC + 2});
	/* c.sdsp with uimm 504: c.sdsp ra, 504(sp) */
	EXPECT("c.sdsp ra, 504(sp)", 0xff86, 2, r, {ISA_REG_PC, PC + 2});
	CHECK(fake_get64(sp + 504) == r.r[RA], "c.sdsp 504: memory");
	fake_put64(sp + 504, 0x504);
	EXPECT("c.ldsp ra, 504(sp)", 0x70fe, 2, r, {RA, 0x504}, {ISA_REG_PC, PC + 2});
	/* sd zero, 0(sp) stores zero whatever x0's slot holds */
	EXPECT("sd zero, 0(sp)", 0x00013023, 4, r, {ISA_REG_PC, PC + 4});
	CHECK(fake_get64(sp) == 0, "sd zero: memory");

	/* faults leave every register as it was */
	r.r[SPR] = FAKE_LO - 64;
	expect_fault("c.sdsp ra, 8(sp) below the memory", 0xe406, 2, r, FAKE_LO - 56);
	r.r[SPR] = FAKE_LO + FAKE_SIZE - 44;
	expect_fault("ld ra, 40(sp) across the end", 0x02813083, 4, r, FAKE_LO + FAKE_SIZE);
	r.r[S1] = 0x2000;
	expect_fault("c.ld a0, 16(s1) nowhere", 0x6888, 2, r, 0x2010);
}

static void
test_ool(void)
{
	static const struct {
		const char *name;
		uint32_t w;
		uint8_t len;
	} cases[] = {{"c.add a0, a1", 0x952e, 2}, {"mul a0, a1, a2", 0x02c58533, 4}};
	size_t i;

	for (i = 0; i < 2; i++) {
		isa_probe_insn_t pi;
		isa_regs_t r = image(), before = r;
		uint8_t b[4], tr[16];
		uint64_t save = 0;
		uintptr_t fa = 0;

		put(b, cases[i].w, cases[i].len);
		CHECK(isa_probe_prepare(b, cases[i].len, PC, &pi) == 0 &&
			  isa_probe_tramp(&pi, PC, TRAMP, tr, sizeof(tr)) == cases[i].len + 4u,
		      "%s: prepare", cases[i].name);
		CHECK(isa_probe_step(&pi, PC, TRAMP, &r, &save, &fa) == ISA_STEP_TRAMP &&
			  r.r[ISA_REG_PC] == TRAMP,
		      "%s: step", cases[i].name);
		r.r[A0] = 99; /* what the copy did */
		isa_probe_step_done(&pi, PC, &r, save);
		before.r[A0] = 99;
		before.r[ISA_REG_PC] = PC + cases[i].len;
		CHECK(memcmp(&r, &before, sizeof(r)) == 0, "%s: step_done", cases[i].name);
	}
	{
		isa_probe_insn_t zero;
		isa_regs_t r = image();
		uint64_t save = 0;
		uintptr_t fa = 0;

		memset(&zero, 0, sizeof(zero));
		CHECK(isa_probe_step(&zero, PC, TRAMP, &r, &save, &fa) == ISA_STEP_FAULT &&
			  fa == PC,
		      "zeroed isa_probe_insn_t");
	}
}

/* ---- function sites ---- */

typedef struct sites {
	size_t off[64];
	int kind[64];
	int n;
	int stop_at;
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

static void
check_sites(const char *name, const uint8_t *code, size_t size, const size_t *bounds, size_t nb,
	    const size_t *rets, size_t nr)
{
	sites_t s = {{0}, {0}, 0, -1};
	size_t i, k = 0;
	int rc = isa_func_sites(code, size, PC, collect, &s);

	CHECK(rc == 0, "%s: rc %d", name, rc);
	CHECK((size_t)s.n == nb + nr, "%s: %d sites, want %zu", name, s.n, nb + nr);
	for (i = 0; i < nb && k < (size_t)s.n && k < 64; i++) {
		size_t j;
		bool want_ret = false;

		CHECK(s.kind[k] == ISA_SITE_INSN && s.off[k] == bounds[i],
		      "%s: boundary %zu, want %zu", name, s.off[k], bounds[i]);
		k++;
		for (j = 0; j < nr; j++)
			want_ret |= rets[j] == bounds[i];
		if (k < (size_t)s.n && k < 64 && s.kind[k] == ISA_SITE_RETURN) {
			CHECK(want_ret, "%s: unexpected return site at %zu", name, s.off[k]);
			k++;
		} else {
			CHECK(!want_ret, "%s: missing return site at %zu", name, bounds[i]);
		}
	}
}

static void
test_sites(void)
{
	/* c.addi16sp sp,-64; c.sdsp ra,8(sp); jal ra,+0x1fc (call); c.beqz a0,+0xc
	 * (inside); beq a0,a1,+0x2f6 (out); c.ldsp ra,8(sp); c.addi16sp sp,64;
	 * c.j -0x52 (out); 1: bne a0,a1,1b (inside); c.jr ra */
	static const uint8_t f1[] = {0x39, 0x71, 0x06, 0xe4, 0xef, 0x00, 0xc0, 0x1f, 0x11,
				     0xc5, 0x63, 0x0b, 0xb5, 0x2e, 0xa2, 0x60, 0x21, 0x61,
				     0x7d, 0xb7, 0x63, 0x10, 0xb5, 0x00, 0x82, 0x80};
	static const size_t f1_b[] = {0, 2, 4, 8, 10, 14, 16, 18, 20, 24};
	static const size_t f1_r[] = {10, 18, 24};
	/* c.mv a5,a0; auipc t1,0; jalr zero,1024(t1) (tail: out); auipc t1,0;
	 * jalr zero,4(t1) (inside); c.jr a5 (not a return); jalr zero,0(ra);
	 * j f2 (inside); c.j f2_end (the end: out) */
	static const uint8_t f2[] = {0xaa, 0x87, 0x17, 0x03, 0x00, 0x00, 0x67, 0x00, 0x03, 0x40,
				     0x17, 0x03, 0x00, 0x00, 0x67, 0x00, 0x43, 0x00, 0x82, 0x87,
				     0x67, 0x80, 0x00, 0x00, 0xe5, 0xb7, 0x09, 0xa0};
	static const size_t f2_b[] = {0, 2, 6, 10, 14, 18, 20, 24, 26};
	static const size_t f2_r[] = {6, 20, 26};
	sites_t s = {{0}, {0}, 0, -1};

	check_sites("mixed widths", f1, sizeof(f1), f1_b, sizeof(f1_b) / sizeof(f1_b[0]), f1_r,
		    sizeof(f1_r) / sizeof(f1_r[0]));
	check_sites("tail sequences", f2, sizeof(f2), f2_b, sizeof(f2_b) / sizeof(f2_b[0]), f2_r,
		    sizeof(f2_r) / sizeof(f2_r[0]));

	/* a 32-bit instruction cut by the end, or an illegal halfword inside:
	 * nothing reported */
	CHECK(isa_func_sites(f1, sizeof(f1) - 2, PC, collect, &s) == 0, "f1 minus c.jr");
	s.n = 0;
	CHECK(isa_func_sites(f1, 6, PC, collect, &s) == -1 && s.n == 0, "cut jal: %d sites", s.n);
	{
		uint8_t bad[] = {0x82, 0x80, 0x00, 0x00, 0x82, 0x80};

		CHECK(isa_func_sites(bad, sizeof(bad), PC, collect, &s) == -1 && s.n == 0,
		      "illegal halfword: %d sites", s.n);
	}
	s.stop_at = 0;
	CHECK(isa_func_sites(f1, sizeof(f1), PC, collect, &s) == 42 && s.n == 1, "stop");
}

int
main(void)
{
	test_rows();
	test_jumps();
	test_branches();
	test_values();
	test_ool();
	test_sites();
	return isa_test_exit("isa_insn_riscv");
}
