/*
 * tests/isa/cfi/cfa_programs.c: isa_cfi_walk on hand-built CIEs and FDEs.
 *
 * Each case builds a function's unwind data (cfi_image.h), a fake stack
 * whose words say which rule was applied (each candidate location holds a
 * different return address), and checks the PCs the walk returns.  The
 * return addresses lie in F_END, whose CIE marks the return address
 * undefined: the outermost frame, where a walk stops.  Registers a rule
 * restores are seen through a following frame whose CFA is based on them.
 * Written for every ISA (register numbers from isa_regs.h).
 *
 * Covered: rows selected by PC (advance_loc, 1/2/4, code alignment,
 * set_loc), offset/offset_extended(_sf), val_offset, register,
 * same_value, undefined, restore(_extended), remember/restore_state and
 * their bounds, def_cfa(_sf/_register/_offset/_offset_sf), ULEB/SLEB edge
 * cases, augmentations zR/zPLR/zRS/S, CIE version 3, 64-bit lengths,
 * pointer encodings, the search table (many FDEs, gaps, before the first),
 * signal frames (exact PC lookup), DWARF expressions (def_cfa_expression,
 * expression, val_expression; every supported operation, and refused ones
 * falling back to the frame pointer), modules without .eh_frame_hdr, max
 * and counting walks, and the walker's stack use.
 */
#include "cfi_test.h"
#include "cfi_image.h"

#if defined(__x86_64__)
#define CS_DW 3 /* a callee-saved register: rbx */
#define CS_ISA ISA_REG_RBX
#elif defined(__aarch64__)
#define CS_DW 19
#define CS_ISA 19
#elif defined(__riscv)
#define CS_DW 9 /* s1 */
#define CS_ISA 9
#endif
#define SP ISA_DWARF_SP
#define FP ISA_DWARF_FP
#define RA ISA_DWARF_RA

/* Function placement in img_text. */
#define F_END 0x0000   /* outermost: return addresses land here */
#define F_ROWS 0x1000  /* rows by advance_loc */
#define F_REGS 0x1100  /* saved registers, then F_VIAFP, F_VIACS */
#define F_VIAFP 0x1200 /* CFA = fp + 16 */
#define F_VIACS 0x1300 /* CFA = callee-saved register + 8 */
#define F_RULES 0x1400 /* restore, undefined, register, val_offset */
#define F_STATE 0x1500 /* remember/restore */
#define F_DEEP8 0x1600
#define F_DEEP9 0x1640
#define F_NOREM 0x1680
#define F_ALIGN 0x1700 /* code alignment 4, advance_loc1/2/4, set_loc */
#define F_LEB 0x2000   /* 0x40 each */
#define F_SIG 0x3000
#define F_SIGA 0x30c0
#define F_SIGB 0x3100
#define F_NOSIG 0x3200
#define F_SIG2 0x3280
#define F_AUG 0x3400 /* 0x40 each */
#define F_EXPR 0x3800
#define F_LEAF 0x3900
#define F_PAC 0x3980 /* DW_CFA_AARCH64_negate_ra_state */
#define F_LADDER 0x3a00
#define F_TABLE 0x4000 /* 0x10 each */
#define F_HOLE 0x8000  /* covered by no FDE */

#define MARK(n) TEXT(F_END + 0x10 * (n)) /* distinct return addresses */

static isa_cfi_module_t mod;
static uint64_t stk[2048] __attribute__((aligned(16)));
#define SP0 ((uint64_t)(uintptr_t)&stk[100])
#define AT(i) ((uint64_t)(uintptr_t)&stk[i])

static int
walk_mods(const isa_cfi_module_t *mods, size_t n, uint64_t pc, uint64_t sp, uint64_t fp,
          uint64_t cs, uint64_t *pcs, int max)
{
	isa_regs_t r;

	memset(&r, 0, sizeof(r));
	r.r[ISA_REG_PC] = pc;
	r.r[ISA_REG_SP] = sp;
	r.r[ISA_REG_FP] = fp;
	r.r[CS_ISA] = cs;
	return isa_cfi_walk(&r, mods, n, pcs, max);
}

static int
walk(uint64_t pc, uint64_t fp, uint64_t cs, uint64_t *pcs, int max)
{
	return walk_mods(&mod, 1, pc, SP0, fp, cs, pcs, max);
}

/* Expect exactly `n` PCs: pc, then want[0..n-2]. */
static void
expect(const char *what, uint64_t pc, uint64_t fp, uint64_t cs, int n, const uint64_t *want)
{
	uint64_t pcs[16];
	int got, i;

	memset(pcs, 0, sizeof(pcs));
	got = walk(pc, fp, cs, pcs, 16);
	CHECK(got == n, "%s (pc +%#llx): %d frames, want %d", what,
	      (unsigned long long)(pc - TEXT(0)), got, n);
	CHECK(got < 1 || pcs[0] == pc, "%s: pcs[0] is not the PC", what);
	for (i = 1; i < got && i < n; i++)
		CHECK(pcs[i] == want[i - 1],
		      "%s (pc +%#llx): pcs[%d] = text+%#llx, want text+%#llx", what,
		      (unsigned long long)(pc - TEXT(0)), i, (unsigned long long)(pcs[i] - TEXT(0)),
		      (unsigned long long)(want[i - 1] - TEXT(0)));
	CHECK(walk(pc, fp, cs, NULL, 16) == got, "%s: counting walk differs", what);
}

/* The frame ends in F_END with return address MARK(m): two PCs. */
static void
expect_mark(const char *what, uint64_t pc, int m)
{
	uint64_t w[1] = {MARK(m)};

	expect(what, pc, 0, 0, 2, w);
}

/* The walk stops after the first PC (no CFI, and no frame pointer). */
static void
expect_stop(const char *what, uint64_t pc)
{
	expect(what, pc, 0, 0, 1, NULL);
}

/* Return-address slots of a frame whose CFA is SP0 + off. */
static void
set_ra(int off, int m)
{
	stk[100 + off / 8 - 1] = MARK(m);
}

static img_cie_t cie_std;

static void
build_end(void)
{
	static const uint8_t end[] = {I_DEF_CFA(SP, 16), I_UNDEFINED(RA)};
	img_cie_t c = img_cie(end, sizeof(end));

	img_fde(c, TEXT(F_END), 0x1000, NULL, 0);
}

/* ---- rows by PC ------------------------------------------------------ */
static void
build_rows(void)
{
	static const uint8_t p[] = {
	    I_ADV(1),
	    I_DEF_CFA_OFFSET(16), /* +0x01 */
	    I_ADV(4),
	    I_DEF_CFA_OFFSET(32), /* +0x05 */
	    0x03,
	    0x20,
	    0x00,
	    I_DEF_CFA_OFFSET(24), /* advance_loc2 0x20: +0x25 */
	    0x02,
	    0x10,
	    I_DEF_CFA_OFFSET(8), /* advance_loc1 0x10: +0x35 */
	    0x04,
	    0x00,
	    0x01,
	    0x00,
	    0x00,
	    I_NOP, /* advance_loc4 0x100: past the end */
	};

	img_fde(cie_std, TEXT(F_ROWS), 0x100, p, sizeof(p));
}

static void
test_rows(void)
{
	static const struct {
		unsigned pc;
		int off;
	} rows[] = {{0x00, 8},  {0x01, 16}, {0x04, 16}, {0x05, 32}, {0x24, 32},
	            {0x25, 24}, {0x34, 24}, {0x35, 8},  {0xff, 8}};
	size_t i;

	set_ra(8, 1);
	set_ra(16, 2);
	set_ra(24, 3);
	set_ra(32, 4);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		expect_mark("rows by pc", TEXT(F_ROWS + rows[i].pc), rows[i].off / 8);
	/* One past the FDE's range: no FDE covers it (F_ROWS + 0x100 is F_REGS
	 * only if listed: use a hole instead). */
	expect_stop("hole", TEXT(F_HOLE));
}

/* ---- saved registers, seen through the next frames -------------------- */
static void
build_regs(void)
{
	/* CFA = sp + 32; ra at CFA-8; cs at CFA-16 (offset_extended_sf,
	 * factored 2); fp at CFA-24 (offset_extended, factored 3). */
	static const uint8_t p[] = {I_DEF_CFA_OFFSET(32), 0x11, CS_DW, 0x02, I_OFFSET_EXT(FP, 3)};
	static const uint8_t viafp[] = {I_DEF_CFA(FP, 16)};
	static const uint8_t viacs[] = {I_DEF_CFA(CS_DW, 8)};

	img_fde(cie_std, TEXT(F_REGS), 0x100, p, sizeof(p));
	img_fde(cie_std, TEXT(F_VIAFP), 0x100, viafp, sizeof(viafp));
	img_fde(cie_std, TEXT(F_VIACS), 0x100, viacs, sizeof(viacs));
}

static void
test_regs(void)
{
	uint64_t want[3] = {TEXT(F_VIAFP + 0x10), TEXT(F_VIACS + 0x10), MARK(5)};

	memset(stk, 0, sizeof(stk));
	stk[103] = TEXT(F_VIAFP + 0x10); /* CFA-8 */
	stk[102] = AT(300);              /* CFA-16: cs */
	stk[101] = AT(200);              /* CFA-24: fp */
	stk[201] = TEXT(F_VIACS + 0x10); /* F_VIAFP: CFA = fp+16, ra at fp+8 */
	stk[300] = MARK(5);              /* F_VIACS: CFA = cs+8, ra at cs */
	expect("registers restored from the stack", TEXT(F_REGS + 4), 0, 0, 4, want);
	/* The registers of the interrupted frame are used as they are. */
	expect("fp of the first frame", TEXT(F_VIAFP + 4), AT(200), AT(300), 3, want + 1);
	expect("cs of the first frame", TEXT(F_VIACS + 4), 0, AT(300), 2, want + 2);
	/* A restored register that points nowhere: the CFA based on it does
	 * not lie above the stack pointer, and the walk ends there. */
	stk[102] = 8;
	expect("cs pointing below the stack", TEXT(F_REGS + 4), 0, 0, 3, want);
}

/* ---- restore, undefined, register, val_offset --------------------------- */
static void
build_rules(void)
{
	/* The CIE saves cs at CFA-16; the FDE moves it, restores it, ... */
	static const uint8_t init[] = {I_DEF_CFA(SP, 8), I_OFFSET(RA, 1), I_OFFSET(CS_DW, 2)};
	static const uint8_t p[] = {
	    I_DEF_CFA_OFFSET(32),
	    I_OFFSET(CS_DW, 3), /* +0: cs at CFA-24 */
	    I_ADV(2),
	    I_RESTORE(CS_DW), /* +2: CFA-16 again */
	    I_ADV(2),
	    I_OFFSET_EXT(CS_DW, 3), /* +4: CFA-24 */
	    I_ADV(2),
	    I_RESTORE_EXT(CS_DW), /* +6: CFA-16 */
	    I_ADV(2),
	    I_UNDEFINED(CS_DW), /* +8: none */
	    I_ADV(2),
	    I_REGISTER(CS_DW, FP), /* +10: in fp */
	    I_ADV(2),
	    0x15,
	    CS_DW,
	    0x7d, /* +12: val_offset_sf -3: CFA+24 */
	    I_ADV(2),
	    I_SAME(CS_DW), /* +14: unchanged */
	};
	img_cie_t c = img_cie(init, sizeof(init));

	img_fde(c, TEXT(F_RULES), 0x100, p, sizeof(p));
}

static void
test_rules(void)
{
	uint64_t w24[2] = {TEXT(F_VIACS + 0x10), MARK(6)};
	uint64_t w16[2] = {TEXT(F_VIACS + 0x10), MARK(7)};
	uint64_t wfp[2] = {TEXT(F_VIACS + 0x10), MARK(8)};
	uint64_t wval[2] = {TEXT(F_VIACS + 0x10), MARK(9)};
	uint64_t wsame[2] = {TEXT(F_VIACS + 0x10), MARK(10)};

	memset(stk, 0, sizeof(stk));
	stk[103] = TEXT(F_VIACS + 0x10); /* ra at CFA-8 (CFA = stk[104]) */
	stk[102] = AT(310);              /* CFA-16 */
	stk[101] = AT(300);              /* CFA-24 */
	stk[300] = MARK(6);
	stk[310] = MARK(7);
	stk[320] = MARK(8);
	stk[107] = MARK(9); /* val_offset: cs = CFA+24, next CFA = CFA+32 */
	stk[330] = MARK(10);
	expect("offset", TEXT(F_RULES + 1), 0, 0, 3, w24);
	expect("restore", TEXT(F_RULES + 2), 0, 0, 3, w16);
	expect("offset_extended", TEXT(F_RULES + 5), 0, 0, 3, w24);
	expect("restore_extended", TEXT(F_RULES + 7), 0, 0, 3, w16);
	expect("undefined", TEXT(F_RULES + 9), 0, 0, 2, w16);
	expect("register", TEXT(F_RULES + 11), AT(320), 0, 3, wfp);
	expect("val_offset_sf", TEXT(F_RULES + 13), 0, 0, 3, wval);
	expect("same_value", TEXT(F_RULES + 15), 0, AT(330), 3, wsame);
}

/* ---- remember/restore_state ----------------------------------------------- */
static void
build_state(void)
{
	static const uint8_t p[] = {
	    I_DEF_CFA_OFFSET(48), /* +0: 48 */
	    I_ADV(1),
	    I_REMEMBER,
	    I_DEF_CFA_OFFSET(8), /* +1: 8 */
	    I_ADV(1),
	    I_RESTORE_STATE, /* +2: 48 */
	    I_ADV(1),
	    I_REMEMBER,
	    I_DEF_CFA_OFFSET(40),
	    I_REMEMBER, /* +3: 16 */
	    I_DEF_CFA_OFFSET(16),
	    I_ADV(1),
	    I_RESTORE_STATE, /* +4: 40 */
	    I_ADV(1),
	    I_RESTORE_STATE, /* +5: 48 */
	};
	uint8_t deep[64];
	size_t n = 0;
	int i;

	img_fde(cie_std, TEXT(F_STATE), 0x40, p, sizeof(p));
	/* Eight nested remembers are allowed, nine are not. */
	for (i = 0; i < 8; i++)
		deep[n++] = I_REMEMBER;
	deep[n++] = 0x0e; /* def_cfa_offset 16 */
	deep[n++] = 16;
	img_fde(cie_std, TEXT(F_DEEP8), 0x40, deep, n);
	n = 0;
	for (i = 0; i < 9; i++)
		deep[n++] = I_REMEMBER;
	img_fde(cie_std, TEXT(F_DEEP9), 0x40, deep, n);
	deep[0] = I_RESTORE_STATE;
	img_fde(cie_std, TEXT(F_NOREM), 0x40, deep, 1);
}

static void
test_state(void)
{
	static const struct {
		unsigned pc;
		int off;
	} rows[] = {{0, 48}, {1, 8}, {2, 48}, {3, 16}, {4, 40}, {5, 48}, {0x3f, 48}};
	size_t i;

	memset(stk, 0, sizeof(stk));
	set_ra(8, 1);
	set_ra(16, 2);
	set_ra(40, 5);
	set_ra(48, 6);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		expect_mark("remember/restore", TEXT(F_STATE + rows[i].pc), rows[i].off / 8);
	expect_mark("eight remembered rows", TEXT(F_DEEP8 + 1), 2);
	expect_stop("nine remembered rows", TEXT(F_DEEP9 + 1));
	expect_stop("restore_state with nothing remembered", TEXT(F_NOREM + 1));
}

/* ---- code alignment, advance_loc1/2/4, set_loc ------------------------------ */
static void
build_align(void)
{
	static const uint8_t init[] = {I_DEF_CFA(SP, 8), I_OFFSET(RA, 1)};
	uint8_t p[32];
	size_t n = 0, fde_at, operand;
	img_cie_t c;
	int32_t rel = 0;

	/* code alignment 4: advance_loc 1 is 4 bytes */
	c = img_cie_full(1, false, "zR", 4, -8, RA, 0x1b, (const uint8_t[]){0x1b}, 1, init,
	                 sizeof(init));
	p[n++] = I_ADV(1); /* +4 */
	p[n++] = 0x0e;
	p[n++] = 16;
	p[n++] = 0x02; /* advance_loc1 2: +12 */
	p[n++] = 2;
	p[n++] = 0x0e;
	p[n++] = 24;
	p[n++] = 0x01; /* set_loc F_ALIGN + 0x20, pcrel|sdata4: patched below */
	operand = n;
	memcpy(&p[n], &rel, 4);
	n += 4;
	p[n++] = 0x0e;
	p[n++] = 32;
	/* The operand is relative to where it lands in the FDE: after the
	 * length, CIE pointer, start, range (4 bytes each) and a one-byte
	 * augmentation length. */
	fde_at = img_n;
	img_fde(c, TEXT(F_ALIGN), 0x100, p, n);
	operand += fde_at + 17;
	rel = (int32_t)(TEXT(F_ALIGN + 0x20) - (uint64_t)(uintptr_t)&img_eh[operand]);
	memcpy(&img_eh[operand], &rel, 4);
}

static void
test_align(void)
{
	memset(stk, 0, sizeof(stk));
	set_ra(8, 1);
	set_ra(16, 2);
	set_ra(24, 3);
	set_ra(32, 4);
	expect_mark("code alignment: before", TEXT(F_ALIGN + 3), 1);
	expect_mark("code alignment: advance_loc", TEXT(F_ALIGN + 4), 2);
	expect_mark("code alignment: advance_loc1", TEXT(F_ALIGN + 12), 3);
	expect_mark("set_loc: before", TEXT(F_ALIGN + 0x1f), 3);
	expect_mark("set_loc", TEXT(F_ALIGN + 0x20), 4);
}

/* ---- LEB128 -------------------------------------------------------------------- */
/* Each case: one FDE whose program is `bytes`; want is the CFA offset, or
 * 0 when the program must be refused. */
static const struct leb_case {
	const char *what;
	uint8_t bytes[16];
	size_t n;
	int want;
} leb_cases[] = {
    {"uleb padded", {0x0e, 0x88, 0x80, 0x80, 0x00}, 5, 8},
    {"uleb two bytes", {0x0e, 0xa0, 0x01}, 3, 160},
    {"uleb 10 bytes, 2^64-1",
     {0x0e, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
     11,
     0},
    {"uleb 10 bytes, overflow",
     {0x0e, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02},
     11,
     0},
    {"uleb 11 bytes",
     {0x0e, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00},
     12,
     0},
    {"uleb cut short", {0x0e, 0x80}, 2, 0},
    {"uleb 2^31", {0x0e, 0x80, 0x80, 0x80, 0x80, 0x08}, 6, 0},
    {"sleb -3", {0x13, 0x7d}, 2, 24},
    {"sleb -3 padded", {0x13, 0xfd, 0x7f}, 3, 24},
    {"sleb -20", {0x13, 0x6c}, 2, 160},
    {"sleb +1 (CFA below the stack pointer)", {0x13, 0x01}, 2, -8},
    {"sleb INT64_MIN", {0x13, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f}, 11, 0},
    {"sleb 10th byte 0x01",
     {0x13, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
     11,
     0},
    {"sleb -1 in 10 bytes",
     {0x13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
     11,
     8},
};

static void
build_leb(void)
{
	size_t i;

	for (i = 0; i < sizeof(leb_cases) / sizeof(leb_cases[0]); i++)
		img_fde(cie_std, TEXT(F_LEB + 0x40 * i), 0x40, leb_cases[i].bytes, leb_cases[i].n);
}

static void
test_leb(void)
{
	size_t i;
	int w;

	memset(stk, 0, sizeof(stk));
	for (i = 0; i < sizeof(leb_cases) / sizeof(leb_cases[0]); i++) {
		w = leb_cases[i].want;
		if (w > 0) {
			set_ra(w, (int)i + 1);
			expect_mark(leb_cases[i].what, TEXT(F_LEB + 0x40 * i + 1), (int)i + 1);
		} else {
			/* refused, or a CFA below the stack pointer: stop */
			expect_stop(leb_cases[i].what, TEXT(F_LEB + 0x40 * i + 1));
		}
	}
}

/* ---- signal frames ---------------------------------------------------------------- */
static void
build_signal(void)
{
	static const uint8_t init[] = {I_DEF_CFA(SP, 16), I_OFFSET(RA, 1)};
	static const uint8_t a[] = {I_DEF_CFA_OFFSET(32)};
	static const uint8_t b[] = {I_DEF_CFA_OFFSET(24)};
	img_cie_t sig = img_cie_full(1, false, "zRS", 1, -8, RA, 0x1b, (const uint8_t[]){0x1b}, 1,
	                             init, sizeof(init));
	img_cie_t plain = img_cie(init, sizeof(init));

	img_fde(sig, TEXT(F_SIG), 0x40, NULL, 0);
	/* a signal frame that also restores cs from CFA-16 */
	img_fde(sig, TEXT(F_SIG2), 0x40, (const uint8_t[]){I_OFFSET(CS_DW, 2)}, 2);
	img_fde(plain, TEXT(F_NOSIG), 0x40, NULL, 0);
	img_fde(cie_std, TEXT(F_SIGA), 0x40, a, sizeof(a));
	img_fde(cie_std, TEXT(F_SIGB), 0x40, b, sizeof(b));
}

static void
test_signal(void)
{
	uint64_t wb[2] = {TEXT(F_SIGB), MARK(2)};
	uint64_t wa[2] = {TEXT(F_SIGB), MARK(3)};
	uint64_t wl[2] = {TEXT(F_LEAF + 4), MARK(7)};

	/* Frame 1 (CFA SP0+16) returns to F_SIGB exactly; the caller's row is
	 * F_SIGB's (CFA +24) after a signal frame, F_SIGA's (CFA +32) after
	 * a call. */
	memset(stk, 0, sizeof(stk));
	stk[101] = TEXT(F_SIGB);
	stk[102 + 24 / 8 - 1] = MARK(2);
	stk[102 + 32 / 8 - 1] = MARK(3);
	expect("after a signal frame the PC is exact", TEXT(F_SIG + 4), 0, 0, 3, wb);
	expect("after a call the PC is a return address", TEXT(F_NOSIG + 4), 0, 0, 3, wa);

	/* A signal may interrupt a leaf that allocated nothing: its CFA is
	 * the stack pointer the signal frame restored (F_LEAF: CFA = sp,
	 * return address in cs). */
	memset(stk, 0, sizeof(stk));
	stk[101] = TEXT(F_LEAF + 4);
	stk[100] = MARK(7);
	expect("an interrupted leaf above a signal frame", TEXT(F_SIG2 + 4), 0, 0, 3, wl);
}

/* ---- augmentations, encodings, versions, 64-bit lengths ------------------------------- */
static void
build_aug(void)
{
	static const uint8_t init[] = {I_DEF_CFA(SP, 8), I_OFFSET(RA, 1)};
	static const uint8_t body[] = {I_DEF_CFA_OFFSET(16)};
	const uint8_t zplr[] = {0x9b, 0x11, 0x22, 0x33,
	                        0x44, 0x1b, 0x1b}; /* P: indirect, skipped */
	const uint8_t lsda[] = {0x55, 0x66, 0x77, 0x88};
	img_cie_t c;
	unsigned k = 0;

	c = img_cie_full(1, false, "zPLR", 1, -8, RA, 0x1b, zplr, sizeof(zplr), init, sizeof(init));
	img_fde_full(c, TEXT(F_AUG + 0x40 * k++), 0x40, lsda, sizeof(lsda), body, sizeof(body),
	             false);
	/* no augmentation: absolute 8-byte FDE addresses */
	c = img_cie_full(1, false, "", 1, -8, RA, 0x00, NULL, 0, init, sizeof(init));
	img_fde(c, TEXT(F_AUG + 0x40 * k++), 0x40, body, sizeof(body));
	/* "S" alone */
	c = img_cie_full(1, false, "S", 1, -8, RA, 0x00, NULL, 0, init, sizeof(init));
	img_fde(c, TEXT(F_AUG + 0x40 * k++), 0x40, body, sizeof(body));
	/* version 3: the return-address column is ULEB128 */
	c = img_cie_full(3, false, "zR", 1, -8, RA, 0x1b, (const uint8_t[]){0x1b}, 1, init,
	                 sizeof(init));
	img_fde(c, TEXT(F_AUG + 0x40 * k++), 0x40, body, sizeof(body));
	/* 64-bit DWARF lengths */
	c = img_cie_full(1, true, "zR", 1, -8, RA, 0x1b, (const uint8_t[]){0x1b}, 1, init,
	                 sizeof(init));
	img_fde(c, TEXT(F_AUG + 0x40 * k++), 0x40, body, sizeof(body));
	/* pcrel|sdata8, udata4 absolute (the text is below 4 GiB only in a
	 * non-PIE; use udata8), pcrel|sdata2 cannot reach: skip */
	c = img_cie_full(1, false, "zR", 1, -8, RA, 0x1c, (const uint8_t[]){0x1c}, 1, init,
	                 sizeof(init));
	img_fde(c, TEXT(F_AUG + 0x40 * k++), 0x40, body, sizeof(body));
	c = img_cie_full(1, false, "zR", 1, -8, RA, 0x04, (const uint8_t[]){0x04}, 1, init,
	                 sizeof(init));
	img_fde(c, TEXT(F_AUG + 0x40 * k++), 0x40, body, sizeof(body));
	/* the CIE riscv gcc emits: def_cfa_register alone (offset 0) */
	c = img_cie_full(3, false, "zR", 1, -4, RA, 0x1b, (const uint8_t[]){0x1b}, 1,
	                 (const uint8_t[]){I_DEF_CFA_REGISTER(SP)}, 2);
	img_fde(c, TEXT(F_AUG + 0x40 * k++), 0x40,
	        (const uint8_t[]){I_DEF_CFA_OFFSET(16), I_OFFSET(RA, 2)}, 4);
	/* pcrel|sleb128 */
	c = img_cie_full(1, false, "zR", 1, -8, RA, 0x19, (const uint8_t[]){0x19}, 1, init,
	                 sizeof(init));
	img_fde(c, TEXT(F_AUG + 0x40 * k++), 0x40, body, sizeof(body));
	/* Refused: indirect FDE addresses, an unknown augmentation, "eh",
	 * version 2, a datarel FDE address (no base in .eh_frame). */
	c = img_cie_full(1, false, "zR", 1, -8, RA, 0x9b, (const uint8_t[]){0x9b}, 1, init,
	                 sizeof(init));
	img_fde(c, TEXT(F_AUG + 0x40 * k++), 0x40, body, sizeof(body));
	c = img_cie_full(1, false, "zQ", 1, -8, RA, 0x1b, (const uint8_t[]){0x1b}, 1, init,
	                 sizeof(init));
	img_fde(c, TEXT(F_AUG + 0x40 * k++), 0x40, body, sizeof(body));
	c = img_cie_full(1, false, "eh", 1, -8, RA, 0x00, NULL, 0, init, sizeof(init));
	img_fde(c, TEXT(F_AUG + 0x40 * k++), 0x40, body, sizeof(body));
	c = img_cie_full(2, false, "zR", 1, -8, RA, 0x1b, (const uint8_t[]){0x1b}, 1, init,
	                 sizeof(init));
	img_fde(c, TEXT(F_AUG + 0x40 * k++), 0x40, body, sizeof(body));
	c = img_cie_full(1, false, "zR", 1, -8, RA, 0x3b, (const uint8_t[]){0x3b}, 1, init,
	                 sizeof(init));
	img_fde(c, TEXT(F_AUG + 0x40 * k++), 0x40, body, sizeof(body));
}

static void
test_aug(void)
{
	static const char *const ok[] = {"zPLR",      "no augmentation",        "S",
	                                 "version 3", "64-bit lengths",         "pcrel|sdata8",
	                                 "udata8",    "def_cfa_register alone", "pcrel|sleb128"};
	static const char *const bad[] = {"indirect", "unknown letter", "eh", "version 2",
	                                  "datarel FDE"};
	unsigned k;

	memset(stk, 0, sizeof(stk));
	set_ra(16, 3);
	for (k = 0; k < 9; k++)
		expect_mark(ok[k], TEXT(F_AUG + 0x40 * k + 1), 3);
	for (k = 0; k < 5; k++)
		expect_stop(bad[k], TEXT(F_AUG + 0x40 * (9 + k) + 1));
}

/* ---- DWARF expressions ------------------------------------------------------------------ */
#define F_EXPRS 0x5800 /* 0x10 each */
#define OP_BREG_SP (uint8_t)(0x70 + SP)
#define OP_BREGX_CS 0x92, CS_DW /* DW_OP_bregx: the callee-saved register may be above 31 */

/* def_cfa_expression blocks: want is the CFA's offset from SP0, or 0
 * when the expression must be refused (the frame pointer stands in). */
static const struct expr_case {
	const char *what;
	uint8_t ops[24];
	size_t n;
	uint64_t cs;
	int want;
} expr_cases[] = {
    {"breg", {OP_BREG_SP, 8}, 2, 0, 8},
    /* a PLT stub's: sp + 8, + 8 more when (reg & 15) >= 11 */
    {"plt-like, low",
     {OP_BREGX_CS, 0, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, OP_BREG_SP, 8, 0x22},
     12,
     3,
     8},
    {"plt-like, high",
     {OP_BREGX_CS, 0, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, OP_BREG_SP, 8, 0x22},
     12,
     12,
     16},
    {"deref", {OP_BREG_SP, 16, 0x06}, 3, 0, 240},
    {"deref_size 8", {OP_BREG_SP, 16, 0x94, 8}, 4, 0, 240},
    {"const2u", {0x0a, 0x10, 0x00, OP_BREG_SP, 0, 0x22}, 6, 0, 16},
    {"const4s, neg", {0x0d, 0xf0, 0xff, 0xff, 0xff, 0x1f, OP_BREG_SP, 0, 0x22}, 9, 0, 16},
    {"const1s, swap, minus", {0x09, 0xf8, OP_BREG_SP, 0, 0x16, 0x1c}, 6, 0, 8},
    {"consts, swap, minus", {0x11, 0x78, OP_BREG_SP, 0, 0x16, 0x1c}, 6, 0, 8},
    {"constu", {0x10, 24, OP_BREG_SP, 0, 0x22}, 5, 0, 24},
    {"over, swap, drop", {OP_BREG_SP, 0, 0x38, 0x14, 0x16, 0x22, 0x16, 0x13}, 8, 0, 8},
    {"rot, pick, shl",
     {0x31, 0x32, 0x33, 0x17, 0x13, 0x13, 0x15, 0, 0x22, 0x32, 0x24, OP_BREG_SP, 0, 0x22},
     14,
     0,
     24},
    {"bra taken", {0x31, 0x28, 0x02, 0x00, OP_BREG_SP, 0x40, OP_BREG_SP, 0x08}, 8, 0, 8},
    {"bra not taken",
     {0x30, 0x28, 0x02, 0x00, OP_BREG_SP, 0x10, 0x2f, 0x02, 0x00, OP_BREG_SP, 0x08},
     11,
     0,
     16},
    {"refused: DW_OP_reg0", {0x50}, 1, 0, 0},
    {"refused: DW_OP_call2", {0x98, 0, 0}, 3, 0, 0},
    {"refused: division by zero", {0x31, 0x30, 0x1b}, 3, 0, 0},
    {"refused: modulo zero", {0x31, 0x30, 0x1d}, 3, 0, 0},
    {"refused: nine pushes", {0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31, 0x31}, 9, 0, 0},
    {"refused: drop from empty", {0x13}, 1, 0, 0},
    {"refused: endless bra loop", {0x31, 0x28, 0xfc, 0xff}, 4, 0, 0},
    {"refused: skip out of the block", {0x2f, 0x64, 0x00}, 3, 0, 0},
    {"refused: load from 0", {0x30, 0x06}, 2, 0, 0},
    {"refused: deref_size 3", {OP_BREG_SP, 16, 0x94, 3}, 4, 0, 0},
    {"refused: empty", {0}, 0, 0, 0},
    {"refused: cut short", {OP_BREG_SP}, 1, 0, 0},
};

static void
build_expr(void)
{
	/* expression and val_expression rules, the CFA a plain one:
	 * ra saved at CFA - 8 {lit8 minus}, cs = CFA + 24 {plus_uconst 24} */
	static const uint8_t rules[] = {
	    I_DEF_CFA_OFFSET(32), 0x10, RA, 2, 0x38, 0x1c, 0x16, CS_DW, 2, 0x23, 24};
	uint8_t p[32];
	size_t i;

	for (i = 0; i < sizeof(expr_cases) / sizeof(expr_cases[0]); i++) {
		p[0] = 0x0f; /* DW_CFA_def_cfa_expression */
		p[1] = (uint8_t)expr_cases[i].n;
		memcpy(p + 2, expr_cases[i].ops, expr_cases[i].n);
		img_fde(cie_std, TEXT(F_EXPRS + 0x10 * i), 0x10, p, expr_cases[i].n + 2);
	}
	img_fde(cie_std, TEXT(F_EXPR), 0x40, rules, sizeof(rules));
}

/* A frame record at &stk[i] returning to ra. */
static uint64_t
frame_record(int i, uint64_t ra, uint64_t caller_fp)
{
	uint64_t fp = AT(i);

	memcpy((uint8_t *)(uintptr_t)fp + ISA_FRAME_RA_OFF, &ra, 8);
	memcpy((uint8_t *)(uintptr_t)fp + ISA_FRAME_FP_OFF, &caller_fp, 8);
	return fp;
}

static void
test_expr(void)
{
	uint64_t w[1], wr[2] = {TEXT(F_VIACS + 0x10), MARK(9)};
	uint64_t fp;
	size_t i;

	memset(stk, 0, sizeof(stk));
	fp = frame_record(400, MARK(15), 0);
	for (i = 0; i < sizeof(expr_cases) / sizeof(expr_cases[0]); i++) {
		const struct expr_case *e = &expr_cases[i];

		stk[102] = AT(130); /* for deref: a CFA 240 bytes up */
		if (e->want > 0)
			set_ra(e->want, (int)i + 1);
		w[0] = e->want > 0 ? MARK(i + 1) : MARK(15);
		expect(e->what, TEXT(F_EXPRS + 0x10 * i + 1), fp, e->cs, 2, w);
	}
	memset(stk, 0, sizeof(stk));
	stk[103] = TEXT(F_VIACS + 0x10); /* CFA - 8 */
	stk[107] = MARK(9);              /* cs = CFA + 24; F_VIACS: ra at cs */
	expect("expression and val_expression rules", TEXT(F_EXPR + 1), 0, 0, 3, wr);
}

/* ---- the interrupted frame may be a leaf; later frames may not -------------------------- */
/* ---- signed return addresses (AArch64 pointer authentication) ------------------------------ */
static void
build_pac(void)
{
	/* negate_ra_state at +1: from there the saved return address carries
	 * a code in ISA_DWARF_RA_PAC_MASK's bits */
	static const uint8_t p[] = {I_DEF_CFA_OFFSET(16), I_ADV(1), 0x2d};

	img_fde(cie_std, TEXT(F_PAC), 0x40, p, sizeof(p));
}

static void
test_pac(void)
{
	uint64_t w[1] = {MARK(3)};
	uint64_t signed_ra = MARK(3) | (0x5aull << 48);

	memset(stk, 0, sizeof(stk));
	stk[101] = signed_ra;
	if (ISA_DWARF_RA_PAC_MASK != 0) {
		/* the code is stripped once the state says "signed" */
		stk[101] = MARK(3);
		expect("before negate_ra_state", TEXT(F_PAC), 0, 0, 2, w);
		stk[101] = signed_ra;
		expect("signed return address", TEXT(F_PAC + 1), 0, 0, 2, w);
	} else {
		/* no pointer authentication here: the opcode is not understood */
		expect_stop("negate_ra_state refused", TEXT(F_PAC + 1));
	}
}

static void
build_leaf(void)
{
	static const uint8_t p[] = {I_DEF_CFA(SP, 0), I_REGISTER(RA, CS_DW)};

	img_fde(cie_std, TEXT(F_LEAF), 0x40, p, sizeof(p));
}

static void
test_leaf(void)
{
	uint64_t w[1] = {MARK(6)};
	uint64_t w2[1] = {TEXT(F_LEAF + 0x10)};

	memset(stk, 0, sizeof(stk));
	/* F_END after a leaf: CFA = SP0 + 16 */
	expect("leaf, return address in a register", TEXT(F_LEAF + 1), 0, MARK(6), 2, w);
	/* A caller whose CFA equals its callee's stack pointer: stop. */
	set_ra(8, 0);
	stk[100] = TEXT(F_LEAF + 0x10);
	expect("non-leaf with an empty frame stops", TEXT(F_ROWS), 0, MARK(6), 2, w2);
}

/* ---- many frames: max, counting, stack use ------------------------------------------------ */
static void
build_ladder(void)
{
	static const uint8_t p[] = {I_DEF_CFA_OFFSET(16)};

	img_fde(cie_std, TEXT(F_LADDER), 0x40, p, sizeof(p));
}

static uintptr_t painted;

static void __attribute__((noinline)) paint(void)
{
	volatile uint8_t area[16384];
	size_t i;

	for (i = 0; i < sizeof(area); i++)
		area[i] = 0xa5;
	painted = (uintptr_t)area;
}

static void
test_ladder(void)
{
	uint64_t pcs[64];
	isa_regs_t r;
	int i, n;
	size_t used;

	/* 40 frames of 16 bytes, then a zero return address. */
	memset(stk, 0, sizeof(stk));
	for (i = 0; i < 40; i++)
		stk[100 + 2 * i + 1] = TEXT(F_LADDER + 0x10);
	n = walk(TEXT(F_LADDER + 1), 0, 0, pcs, 64);
	CHECK(n == 41, "ladder: %d frames, want 41", n);
	CHECK(walk(TEXT(F_LADDER + 1), 0, 0, NULL, 64) == 41, "ladder: counting walk");
	CHECK(walk(TEXT(F_LADDER + 1), 0, 0, pcs, 10) == 10, "ladder: max 10");
	CHECK(walk(TEXT(F_LADDER + 1), 0, 0, pcs, 1) == 1, "ladder: max 1");
	CHECK(walk(TEXT(F_LADDER + 1), 0, 0, pcs, 0) == 0, "ladder: max 0");
	CHECK(isa_cfi_walk(NULL, &mod, 1, pcs, 8) == 0, "NULL registers");

	/* The walker's stack use: the deepest byte it changed below us. */
	memset(&r, 0, sizeof(r));
	r.r[ISA_REG_PC] = TEXT(F_LADDER + 1);
	r.r[ISA_REG_SP] = SP0;
	paint();
	n = isa_cfi_walk(&r, &mod, 1, pcs, 64);
	for (i = 0; i < 16384 && ((volatile uint8_t *)painted)[i] == 0xa5; i++)
		;
	used = 16384 - (size_t)i;
	printf("stack used by a 41-frame walk: about %zu bytes\n", used);
	CHECK(n == 41 && used < 2048, "walk used %zu bytes of stack", used);
}

/* ---- the search table ----------------------------------------------------------------------- */
#define NTABLE 300

static void
build_table(void)
{
	uint8_t p[2];
	int i;

	for (i = 0; i < NTABLE; i++) {
		if (i % 17 == 5)
			continue; /* a gap */
		p[0] = 0x0e;
		p[1] = (uint8_t)(8 * (i % 6 + 1));
		img_fde(cie_std, TEXT(F_TABLE + 0x10 * i), 0x10, p, 2);
	}
}

static void
test_table(void)
{
	int i, j;
	static const unsigned at[] = {0, 7, 15};

	memset(stk, 0, sizeof(stk));
	for (i = 1; i <= 6; i++)
		set_ra(8 * i, i);
	for (i = 0; i < NTABLE; i++)
		for (j = 0; j < 3; j++) {
			uint64_t pc = TEXT(F_TABLE + 0x10 * i + at[j]);

			if (i % 17 == 5)
				expect_stop("table gap", pc);
			else
				expect_mark("table", pc, i % 6 + 1);
		}
	expect_stop("after the last FDE", TEXT(F_TABLE + 0x10 * NTABLE + 4));
	/* before the first: below img_text, outside the module too */
	CHECK(walk_mods(&mod, 1, TEXT(0) - 1, SP0, 0, 0, NULL, 8) == 1, "before the module");
}

/* ---- modules: none, no .eh_frame_hdr, several --------------------------------------------------
 */
static void
test_modules(void)
{
	isa_cfi_module_t two[2];
	uint64_t pcs[8], fp;
	int n;

	memset(stk, 0, sizeof(stk));
	set_ra(16, 2);
	fp = frame_record(400, MARK(7), 0);
	/* No module: the frame pointer, then F_END's CFI. */
	n = walk_mods(NULL, 0, TEXT(F_ROWS + 1), SP0, fp, 0, pcs, 8);
	CHECK(n == 2 && pcs[1] == MARK(7), "no modules: %d frames", n);
	/* The module without .eh_frame_hdr. */
	two[0] = mod;
	two[0].cm_eh_frame_hdr = 0;
	n = walk_mods(two, 1, TEXT(F_ROWS + 1), SP0, fp, 0, pcs, 8);
	CHECK(n == 2 && pcs[1] == MARK(7), "no .eh_frame_hdr: %d frames", n);
	/* Found in the second module of two. */
	two[0].cm_lo = 0x1000;
	two[0].cm_hi = 0x2000;
	two[1] = mod;
	n = walk_mods(two, 2, TEXT(F_ROWS + 1), SP0, 0, 0, pcs, 8);
	CHECK(n == 2 && pcs[1] == MARK(2), "second module: %d frames", n);
	/* A frame pointer below the stack pointer is refused. */
	n = walk_mods(NULL, 0, TEXT(F_ROWS + 1), AT(500), fp, 0, pcs, 8);
	CHECK(n == 1, "frame pointer below sp: %d frames", n);
}

int
main(void)
{
	static const uint8_t std[] = {I_DEF_CFA(SP, 8), I_OFFSET(RA, 1)};

	cfi_install_nofault_handler();
	cie_std = img_cie(std, sizeof(std));
	build_end();
	build_rows();
	build_regs();
	build_rules();
	build_state();
	build_align();
	build_leb();
	build_signal();
	build_aug();
	build_expr();
	build_leaf();
	build_pac();
	build_ladder();
	build_table();
	mod = img_finish();

	test_rows();
	test_regs();
	test_rules();
	test_state();
	test_align();
	test_leb();
	test_signal();
	test_aug();
	test_expr();
	test_leaf();
	test_pac();
	test_ladder();
	test_table();
	test_modules();
	TEST_DONE();
}
