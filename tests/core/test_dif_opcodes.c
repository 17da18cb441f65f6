/*
 * Every DIF opcode does what DTrace's interpreter does: arithmetic and
 * logic (with the edge cases C leaves undefined made definite), condition
 * codes and all eleven branches, loads of every width and signedness from
 * scratch, kernel and user memory, privilege-checked RLD loads, stores
 * limited to D-writable memory, ALLOCS/COPYS, string compare, the tuple
 * stack, and global, clause-local, thread-local and associative variables.
 * Faults stop the program with the right code, address and DIF offset.
 */
#include "dif_harness.h"

static dif_env_t env;
static dif_env_t *e = &env;

static uint64_t ints[] = {
	0,			/* 0 */
	1,			/* 1 */
	(uint64_t)-1,		/* 2 */
	0x8000000000000000ull, /* 3: INT64_MIN */
	0x7fffffffffffffffull, /* 4: INT64_MAX */
	10,			/* 5 */
	3,			/* 6 */
	64,			/* 7 */
	0xfedcba9876543210ull, /* 8 */
	65,			/* 9 */
	(uint64_t)-7,		/* 10 */
	5,			/* 11 */
	2,			/* 12 */
	6,			/* 13 */
};
static char strs[] = "abc\0abd\0ab\0";
#define S_ABC 0
#define S_ABD 4
#define S_AB 8

/* Run `ins` as a DIFO with the shared tables; release it afterwards. */
static uint64_t
run(const dif_instr_t *ins, uint32_t n)
{
	dtrace_difo_t *dp = env_load(e, mkdifo(ins, n, ints, NELEM(ints), strs, sizeof(strs), NULL, 0));
	uint64_t r = env_run1(e, dp);

	if (dp != NULL)
		dtrace_difo_release(dp, env_vs(e));
	return r;
}

#define RUN(...)                                                                           \
	({                                                                                 \
		dif_instr_t p_[] = {__VA_ARGS__};                                          \
		run(p_, NELEM(p_));                                                        \
	})

/* r1 = ints[a], r2 = ints[b]; rd = r1 OP r2 */
#define BINOP(op, a, b) RUN(SETX(a, 1), SETX(b, 2), I(op, 1, 2, 3), RET(3))

static void
test_arithmetic_and_logic(void)
{
	CHECK_EQ(BINOP(ADD, 5, 6), 13);
	CHECK_EQ(BINOP(ADD, 4, 1), 0x8000000000000000ull); /* wraps */
	CHECK_EQ(BINOP(SUB, 6, 5), (uint64_t)-7);
	CHECK_EQ(BINOP(MUL, 5, 6), 30);
	CHECK_EQ(BINOP(MUL, 10, 6), (uint64_t)-21);
	CHECK_EQ(BINOP(SDIV, 10, 12), (uint64_t)-3); /* -7 / 2 truncates */
	CHECK_EQ(BINOP(SREM, 10, 12), (uint64_t)-1);
	CHECK_EQ(BINOP(UDIV, 10, 12), 0x7ffffffffffffffcull);
	CHECK_EQ(BINOP(UREM, 5, 6), 1);
	CHECK_EQ(BINOP(SDIV, 3, 2), 0x8000000000000000ull); /* INT64_MIN / -1 */
	CHECK_NOFAULT(e);
	CHECK_EQ(BINOP(SREM, 3, 2), 0);
	CHECK_EQ(BINOP(OR, 5, 6), 11);
	CHECK_EQ(BINOP(AND, 5, 6), 2);
	CHECK_EQ(BINOP(XOR, 5, 6), 9);
	CHECK_EQ(BINOP(SLL, 1, 6), 8);
	CHECK_EQ(BINOP(SLL, 1, 9), 2); /* shift counts are modulo 64 */
	CHECK_EQ(BINOP(SLL, 1, 7), 1);
	CHECK_EQ(BINOP(SRL, 3, 7), 0x8000000000000000ull);
	CHECK_EQ(BINOP(SRL, 3, 6), 0x1000000000000000ull);
	CHECK_EQ(BINOP(SRA, 3, 6), 0xf000000000000000ull);
	CHECK_EQ(BINOP(SRA, 10, 1), (uint64_t)-4);
	CHECK_EQ(RUN(SETX(8, 1), I(NOT, 1, 0, 2), RET(2)), ~0xfedcba9876543210ull);
	CHECK_EQ(RUN(SETX(8, 1), I(MOV, 1, 0, 2), RET(2)), 0xfedcba9876543210ull);
	CHECK_EQ(RUN(SETX(5, 1), I(NOP, 0, 0, 0), RET(1)), 10);
	/* %r0 reads as zero; RET %r0 returns 0. */
	CHECK_EQ(RUN(SETX(5, 1), I(ADD, 0, 1, 2), RET(2)), 10);
	CHECK_EQ(RUN(RET(0)), 0);
	/* SETS yields the address inside the DIFO's string table. */
	CHECK_EQ(RUN(SETS(S_ABD, 1), I(LDUB, 1, 0, 2), RET(2)), 'a');
}

static void
test_division_by_zero_faults(void)
{
	static const int ops[] = {DIF_OP_SDIV, DIF_OP_UDIV, DIF_OP_SREM, DIF_OP_UREM};

	for (int i = 0; i < 4; i++) {
		uint64_t r = RUN(SETX(5, 1), I(NOP, 0, 0, 0), DIF_INSTR_FMT(ops[i], 1, 0, 3),
				 SETX(5, 3), RET(3));
		CHECK_EQ(r, 0);
		CHECK_FAULT(e, DTRACE_CPUF_DIVZERO, 0, 8); /* third instruction: offset 8 */
		CHECK(e->m.dtms_present & DTRACE_MSTATE_FLTOFFS);
	}
}

/* cmp a, b; b<cond> taken -> 1, else 0 */
static uint64_t
branch(int op, int a, int b)
{
	dif_instr_t p[] = {SETX(a, 1), SETX(b, 2), I(CMP, 1, 2, 0), DIF_INSTR_BRANCH(op, 6),
			   I(MOV, 0, 0, 3), RET(3), SETX(1, 3), RET(3)};

	return run(p, NELEM(p));
}

static void
test_branches_follow_condition_codes(void)
{
	/* ints: 0:0 1:1 2:-1 3:INT64_MIN 4:INT64_MAX 5:10 6:3 */
	CHECK_EQ(branch(DIF_OP_BA, 5, 6), 1);
	CHECK_EQ(branch(DIF_OP_BE, 5, 5), 1);
	CHECK_EQ(branch(DIF_OP_BE, 5, 6), 0);
	CHECK_EQ(branch(DIF_OP_BNE, 5, 6), 1);
	CHECK_EQ(branch(DIF_OP_BNE, 6, 6), 0);
	CHECK_EQ(branch(DIF_OP_BG, 5, 6), 1);
	CHECK_EQ(branch(DIF_OP_BG, 6, 5), 0);
	CHECK_EQ(branch(DIF_OP_BG, 6, 6), 0);
	CHECK_EQ(branch(DIF_OP_BG, 1, 2), 1);	 /* 1 > -1 signed */
	CHECK_EQ(branch(DIF_OP_BGU, 1, 2), 0);	 /* 1 < 0xff..ff unsigned */
	CHECK_EQ(branch(DIF_OP_BGU, 2, 1), 1);
	CHECK_EQ(branch(DIF_OP_BGE, 6, 6), 1);
	CHECK_EQ(branch(DIF_OP_BGE, 2, 1), 0);
	CHECK_EQ(branch(DIF_OP_BGEU, 2, 1), 1);
	CHECK_EQ(branch(DIF_OP_BGEU, 0, 1), 0);
	CHECK_EQ(branch(DIF_OP_BL, 2, 1), 1);
	CHECK_EQ(branch(DIF_OP_BL, 1, 1), 0);
	CHECK_EQ(branch(DIF_OP_BLU, 0, 1), 1);
	CHECK_EQ(branch(DIF_OP_BLU, 2, 1), 0);
	CHECK_EQ(branch(DIF_OP_BLE, 1, 1), 1);
	CHECK_EQ(branch(DIF_OP_BLE, 5, 1), 0);
	CHECK_EQ(branch(DIF_OP_BLEU, 1, 1), 1);
	CHECK_EQ(branch(DIF_OP_BLEU, 2, 1), 0);
	/* Signed order survives overflow of the subtraction. */
	CHECK_EQ(branch(DIF_OP_BL, 3, 1), 1); /* INT64_MIN < 1 */
	CHECK_EQ(branch(DIF_OP_BG, 4, 2), 1); /* INT64_MAX > -1 */
	CHECK_EQ(branch(DIF_OP_BG, 3, 4), 0);

	/* TST sets Z from one register and clears the rest. */
	dif_instr_t t[] = {SETX(0, 1), I(TST, 1, 0, 0), BR(BE, 5), SETX(5, 2), RET(2),
			   SETX(6, 2), RET(2)};
	CHECK_EQ(run(t, NELEM(t)), 3);
	t[0] = SETX(2, 1);
	CHECK_EQ(run(t, NELEM(t)), 10);
}

static void
test_loads_have_width_and_sign(void)
{
	static uint64_t mem[2];
	uint64_t a = (uintptr_t)mem;
	uint64_t kints[] = {a, a + 1, 0xff, 0x8001, 0x80000001ull};
	char *sc;

	/* From ordinary (kernel) memory, through the port. */
	mem[0] = 0x80008001ff818283ull;
	for (int op = DIF_OP_LDSB; op <= DIF_OP_LDX; op++) {
		dif_instr_t p[] = {SETX(0, 1), DIF_INSTR_LOAD(op, 1, 2), RET(2)};
		dtrace_difo_t *dp =
			env_load(e, mkdifo(p, NELEM(p), kints, NELEM(kints), NULL, 0, NULL, 0));
		uint64_t r = env_run1(e, dp);
		static const uint64_t want[] = {
			(uint64_t)(int8_t)0x83, (uint64_t)(int16_t)0x8283, (uint64_t)(int32_t)0xff818283,
			0x83, 0x8283, 0xff818283, 0x80008001ff818283ull};

		CHECK_EQ(r, want[op - DIF_OP_LDSB]);
		CHECK_NOFAULT(e);
		dtrace_difo_release(dp, env_vs(e));
	}

	/* From scratch (the direct path), including after ALLOCS. */
	dif_instr_t s[] = {SETX(7, 1), I(ALLOCS, 1, 0, 2), SETX(8, 3), I(STX, 3, 0, 2),
			   I(LDSW, 2, 0, 4), RET(4)};
	CHECK_EQ(RUN(s[0], s[1], s[2], s[3], s[4], s[5]), 0x76543210);
	dif_instr_t s2[] = {SETX(7, 1), I(ALLOCS, 1, 0, 2), SETX(8, 3), I(STX, 3, 0, 2),
			    SETX(13, 5), I(ADD, 2, 5, 2), I(LDSH, 2, 0, 4), RET(4)};
	CHECK_EQ(run(s2, NELEM(s2)), (uint64_t)(int16_t)0xfedc);

	/* Misaligned loads fault BADALIGN with the address. */
	dif_instr_t m[] = {SETX(1, 1), I(LDUH, 1, 0, 2), RET(2)};
	dtrace_difo_t *dp = env_load(e, mkdifo(m, NELEM(m), kints, NELEM(kints), NULL, 0, NULL, 0));
	CHECK_EQ(env_run1(e, dp), 0);
	CHECK_FAULT(e, DTRACE_CPUF_BADALIGN, a + 1, 4);
	dtrace_difo_release(dp, env_vs(e));

	/* Misaligned in scratch too. */
	sc = (char *)e->m.dtms_scratch_base;
	(void)sc;
	dif_instr_t m2[] = {SETX(5, 1), I(ALLOCS, 1, 0, 2), SETX(1, 3), I(ADD, 2, 3, 2),
			    I(LDX, 2, 0, 4), RET(4)};
	CHECK_EQ(run(m2, NELEM(m2)), 0);
	CHECK_EQ(env_flags(e) & DTRACE_CPUF_FAULT, DTRACE_CPUF_BADALIGN);
	CHECK_EQ(e->m.dtms_fltoffs, 16);
}

static void
test_user_loads_use_the_user_space(void)
{
	static uint32_t umem[2] = {0x80000001u, 7};
	uint64_t u[] = {(uintptr_t)umem};
	dif_instr_t p[] = {SETX(0, 1), I(ULDSW, 1, 0, 2), I(ULDUW, 1, 0, 3), I(ADD, 2, 3, 4),
			   RET(4)};
	dtrace_difo_t *dp = env_load(e, mkdifo(p, NELEM(p), u, 1, NULL, 0, NULL, 0));

	CHECK_EQ(env_run1(e, dp), (uint64_t)(int32_t)0x80000001u + 0x80000001u);
	/* A fault injected in user space only hits the ULD loads. */
	testport_fault_range(DTRACE_AS_USER, (uintptr_t)umem, 4, DTRACEFLT_BADADDR);
	CHECK_EQ(env_run1(e, dp), 0);
	CHECK_FAULT(e, DTRACE_CPUF_BADADDR, (uintptr_t)umem, 4);
	testport_fault_clear();
	dtrace_difo_release(dp, env_vs(e));

	dif_instr_t k[] = {SETX(0, 1), I(LDUW, 1, 0, 2), RET(2)};
	dp = env_load(e, mkdifo(k, NELEM(k), u, 1, NULL, 0, NULL, 0));
	testport_fault_range(DTRACE_AS_USER, (uintptr_t)umem, 4, DTRACEFLT_BADADDR);
	CHECK_EQ(env_run1(e, dp), 0x80000001u);
	CHECK_NOFAULT(e);
	testport_fault_clear();
	dtrace_difo_release(dp, env_vs(e));
}

static void
test_restricted_loads_need_privilege(void)
{
	static uint64_t kmem = 0x1234;
	uint64_t k[] = {(uintptr_t)&kmem};
	dif_instr_t p[] = {SETX(0, 1), I(RLDX, 1, 0, 2), RET(2)};
	dtrace_difo_t *dp = env_load(e, mkdifo(p, NELEM(p), k, 1, NULL, 0, NULL, 0));

	/* With kernel access RLD reads anything. */
	CHECK_EQ(env_run1(e, dp), 0x1234);
	/* Without it, only D memory: KPRIV with the address. */
	e->m.dtms_access = DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
	CHECK_EQ(env_run1(e, dp), 0);
	CHECK_FAULT(e, DTRACE_CPUF_KPRIV, (uintptr_t)&kmem, 4);
	dtrace_difo_release(dp, env_vs(e));

	/* LD without kernel access behaves as RLD. */
	dif_instr_t q[] = {SETX(0, 1), I(LDX, 1, 0, 2), RET(2)};
	dp = env_load(e, mkdifo(q, NELEM(q), k, 1, NULL, 0, NULL, 0));
	CHECK_EQ(env_run1(e, dp), 0);
	CHECK_FAULT(e, DTRACE_CPUF_KPRIV, (uintptr_t)&kmem, 4);
	dtrace_difo_release(dp, env_vs(e));

	/* ...but the DIFO's own string table and scratch stay readable. */
	CHECK_EQ(RUN(SETS(S_ABD, 1), I(RLDUB, 1, 0, 2), RET(2)), 'a');
	CHECK_NOFAULT(e);
	CHECK_EQ(RUN(SETX(7, 1), I(ALLOCS, 1, 0, 2), I(RLDX, 2, 0, 3), RET(3)), 0);
	CHECK_NOFAULT(e);
	e->m.dtms_access = DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
}

static void
test_stores_only_to_d_memory(void)
{
	static uint64_t kmem;
	uint64_t k[] = {(uintptr_t)&kmem, 0x55, 16, 2};

	/* Store into scratch: all four widths. */
	dif_instr_t p[] = {SETX(2, 1), I(ALLOCS, 1, 0, 2), SETX(1, 3), I(STB, 3, 0, 2),
			   I(STH, 3, 0, 2), I(STW, 3, 0, 2), I(STX, 3, 0, 2), I(LDX, 2, 0, 4), RET(4)};
	dtrace_difo_t *dp = env_load(e, mkdifo(p, NELEM(p), k, NELEM(k), NULL, 0, NULL, 0));
	CHECK_EQ(env_run1(e, dp), 0x55);
	CHECK_NOFAULT(e);
	dtrace_difo_release(dp, env_vs(e));

	/* Store to kernel memory: BADADDR, nothing written. */
	dif_instr_t q[] = {SETX(0, 2), SETX(1, 3), I(STX, 3, 0, 2), RET(3)};
	dp = env_load(e, mkdifo(q, NELEM(q), k, NELEM(k), NULL, 0, NULL, 0));
	CHECK_EQ(env_run1(e, dp), 0);
	CHECK_FAULT(e, DTRACE_CPUF_BADADDR, (uintptr_t)&kmem, 8);
	CHECK_EQ(kmem, 0);
	dtrace_difo_release(dp, env_vs(e));

	/* Misaligned store into scratch: BADALIGN. */
	dif_instr_t r[] = {SETX(2, 1), I(ALLOCS, 1, 0, 2), SETX(3, 3), I(ADD, 2, 3, 2),
			   I(STW, 3, 0, 2), RET(3)};
	dp = env_load(e, mkdifo(r, NELEM(r), k, NELEM(k), NULL, 0, NULL, 0));
	CHECK_EQ(env_run1(e, dp), 0);
	CHECK_EQ(env_flags(e) & DTRACE_CPUF_FAULT, DTRACE_CPUF_BADALIGN);
	CHECK_EQ(e->m.dtms_fltoffs, 16);
	dtrace_difo_release(dp, env_vs(e));

	/* A store straddling the end of scratch is refused. */
	uint64_t end = e->m.dtms_scratch_base + HARNESS_SCRATCH - 4;
	uint64_t k2[] = {end, 1};
	dif_instr_t t[] = {SETX(0, 2), SETX(1, 3), I(STX, 3, 0, 2), RET(3)};
	dp = env_load(e, mkdifo(t, NELEM(t), k2, NELEM(k2), NULL, 0, NULL, 0));
	CHECK_EQ(env_run1(e, dp), 0);
	CHECK_FAULT(e, DTRACE_CPUF_BADADDR, end, 8);
	dtrace_difo_release(dp, env_vs(e));
}

static void
test_allocs_and_copys(void)
{
	/* ALLOCS returns 8-aligned zeroed scratch and advances the pointer. */
	dif_instr_t p[] = {SETX(1, 1), I(ALLOCS, 1, 0, 2), I(ALLOCS, 1, 0, 3), I(SUB, 3, 2, 4),
			   RET(4)};
	CHECK_EQ(run(p, NELEM(p)), 8);
	memset(e->scratch[0], 0xee, 64);
	dif_instr_t z[] = {SETX(12, 1), I(ALLOCS, 1, 0, 2), I(LDUH, 2, 0, 3), RET(3)};
	CHECK_EQ(run(z, NELEM(z)), 0);
	/* Too much: NOSCRATCH, result 0. */
	dif_instr_t big[] = {SETX(2, 1), I(ALLOCS, 1, 0, 2), RET(2)};
	CHECK_EQ(run(big, NELEM(big)), 0);
	CHECK_FAULT(e, DTRACE_CPUF_NOSCRATCH, 0, 4);

	/* COPYS copies from the string table into scratch. */
	dif_instr_t c[] = {SETX(7, 1), I(ALLOCS, 1, 0, 2), SETS(S_ABD, 3), SETX(6, 4),
			   I(COPYS, 3, 4, 2), I(LDUB, 2, 0, 5), SETX(12, 6), I(ADD, 2, 6, 2),
			   I(LDUB, 2, 0, 6), I(ADD, 5, 6, 5), RET(5)};
	CHECK_EQ(run(c, NELEM(c)), 'a' + 'd');
	CHECK_NOFAULT(e);
	/* ...but never into non-D memory. */
	static char kbuf[8];
	uint64_t k[] = {(uintptr_t)kbuf, 3};
	dif_instr_t d[] = {SETX(0, 2), I(NOP, 0, 0, 0), SETX(1, 4), I(COPYS, 2, 4, 2), RET(4)};
	dtrace_difo_t *dp = env_load(e, mkdifo(d, NELEM(d), k, NELEM(k), NULL, 0, NULL, 0));
	CHECK_EQ(env_run1(e, dp), 0);
	CHECK_FAULT(e, DTRACE_CPUF_BADADDR, (uintptr_t)kbuf, 12);
	dtrace_difo_release(dp, env_vs(e));
}

static void
test_string_compare(void)
{
	/* scmp sets codes like strcmp: abc < abd, ab < abc, equal strings. */
	dif_instr_t p[] = {SETS(S_ABC, 1), SETS(S_ABD, 2), I(SCMP, 1, 2, 0), BR(BL, 6),
			   SETX(0, 3), RET(3), SETX(1, 3), RET(3)};
	CHECK_EQ(run(p, NELEM(p)), 1);
	p[1] = SETS(S_AB, 2);
	CHECK_EQ(run(p, NELEM(p)), 0);
	p[3] = BR(BG, 6);
	CHECK_EQ(run(p, NELEM(p)), 1);
	p[1] = SETS(S_ABC, 2);
	p[3] = BR(BE, 6);
	CHECK_EQ(run(p, NELEM(p)), 1);
	/* A NULL string compares as "". */
	p[0] = SETX(0, 1);
	p[1] = SETS(S_AB + 2, 2); /* "" */
	CHECK_EQ(run(p, NELEM(p)), 1);

	/* Strings compare only up to strsize. */
	e->state.dts_options[DTRACEOPT_STRSIZE] = 2;
	p[0] = SETS(S_ABC, 1);
	p[1] = SETS(S_ABD, 2);
	CHECK_EQ(run(p, NELEM(p)), 1);
	e->state.dts_options[DTRACEOPT_STRSIZE] = 256;

	/* Unreadable string: BADADDR at the faulting byte. */
	static char kstr[] = "abz";
	uint64_t k[] = {(uintptr_t)kstr};
	dif_instr_t q[] = {SETX(0, 1), SETS(0, 2), I(SCMP, 1, 2, 0), RET(0)};
	dtrace_difo_t *dp = env_load(e, mkdifo(q, NELEM(q), k, 1, strs, sizeof(strs), NULL, 0));
	testport_fault_range(-1, (uintptr_t)kstr + 1, 1, DTRACEFLT_BADADDR);
	env_run1(e, dp);
	CHECK_FAULT(e, DTRACE_CPUF_BADADDR, (uintptr_t)kstr + 1, 8);
	testport_fault_clear();
	dtrace_difo_release(dp, env_vs(e));
}

static dtrace_difv_t vars[8];

static dtrace_difo_t *
load_v(const dif_instr_t *p, uint32_t n, uint32_t nv)
{
	return env_load(e, mkdifo(p, n, ints, NELEM(ints), strs, sizeof(strs), vars, nv));
}

static void
test_global_and_local_variables(void)
{
	vars[0] = mkvar(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, DIF_TYPE_CTF, 0, 8);
	vars[1] = mkvar(0x501, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, DIF_TYPE_STRING, DIF_TF_BYREF, 4);
	vars[2] = mkvar(0x500, DIFV_SCOPE_LOCAL, DIFV_KIND_SCALAR, DIF_TYPE_CTF, 0, 8);

	dif_instr_t st[] = {SETX(5, 1), STV(STGS, 0x500, 1), SETS(S_ABC, 2), STV(STGS, 0x501, 2),
			    RET(0)};
	dif_instr_t ld[] = {LDV(LDGS, 0x500, 1), LDV(LDGS, 0x501, 2), I(LDUB, 2, 0, 3),
			    I(ADD, 1, 3, 1), RET(1)};
	dtrace_difo_t *dst = load_v(st, NELEM(st), 3), *dld = load_v(ld, NELEM(ld), 3);

	/* An unset by-reference global reads as a pointer to zeroed storage. */
	env_run1(e, dst);
	CHECK_NOFAULT(e);
	CHECK_EQ(env_run1(e, dld), 10 + 'a');
	/* The string was copied: "abc" into 4 bytes keeps "abc". */
	dif_instr_t ld2[] = {LDV(LDGS, 0x501, 2), RET(2)};
	dtrace_difo_t *d2 = load_v(ld2, NELEM(ld2), 3);
	CHECK_STREQ((const char *)(uintptr_t)env_run1(e, d2), "abc");
	/* Assigning NULL makes it read as NULL. */
	dif_instr_t clr[] = {STV(STGS, 0x501, 0), RET(0)};
	dtrace_difo_t *dclr = load_v(clr, NELEM(clr), 3);
	env_run1(e, dclr);
	CHECK_EQ(env_run1(e, d2), 0);

	/* Clause-locals: one slot per CPU. */
	dif_instr_t sl[] = {LDV(LDLS, 0x500, 1), SETX(1, 2), I(ADD, 1, 2, 1), STV(STLS, 0x500, 1),
			    RET(1)};
	dtrace_difo_t *dsl = load_v(sl, NELEM(sl), 3);
	testport_set_cpu(0);
	CHECK_EQ(env_run1(e, dsl), 1);
	CHECK_EQ(env_run1(e, dsl), 2);
	testport_set_cpu(1);
	CHECK_EQ(env_run1(e, dsl), 1);
	testport_set_cpu(0);

	dtrace_difo_release(dst, env_vs(e));
	dtrace_difo_release(dld, env_vs(e));
	dtrace_difo_release(d2, env_vs(e));
	dtrace_difo_release(dclr, env_vs(e));
	dtrace_difo_release(dsl, env_vs(e));
	/* Every variable's storage went with its last DIFO. */
	CHECK(env_vs(e)->dtvs_globals[0] == NULL && env_vs(e)->dtvs_globals[1] == NULL);
	CHECK(env_vs(e)->dtvs_locals[0] == NULL);
}

/*
 * A string as long as its variable keeps all its bytes with no NUL of its
 * own, as DTrace's dtrace_vcopy() copies; the storage's extra byte, never
 * written, still ends it for strlen() and for pointers into it, even where
 * the next CPU's clause-local instance (its header 0xff: unset) follows.
 */
static void
test_string_filling_its_variable(void)
{
	vars[0] = mkvar(0x500, DIFV_SCOPE_LOCAL, DIFV_KIND_SCALAR, DIF_TYPE_STRING, DIF_TF_BYREF, 3);

	dif_instr_t set[] = {SETS(S_ABC, 1), STV(STLS, 0x500, 1), RET(0)};
	dif_instr_t unset[] = {STV(STLS, 0x500, 0), RET(0)};
	dif_instr_t len[] = {LDV(LDLS, 0x500, 1), PUSHTR(DIF_TYPE_STRING, 0, 1),
			     CALL(DIF_SUBR_STRLEN, 2), I(FLUSHTS, 0, 0, 0), RET(2)};
	dif_instr_t ld[] = {LDV(LDLS, 0x500, 1), RET(1)};
	dtrace_difo_t *dset = load_v(set, NELEM(set), 1), *dunset = load_v(unset, NELEM(unset), 1);
	dtrace_difo_t *dlen = load_v(len, NELEM(len), 1), *dld = load_v(ld, NELEM(ld), 1);
	const char *p;

	testport_set_cpu(1);
	env_run1(e, dunset);
	testport_set_cpu(0);
	env_run1(e, dset);
	CHECK_NOFAULT(e);
	p = (const char *)(uintptr_t)env_run1(e, dld);
	CHECK(p != NULL && memcmp(p, "abc", 3) == 0 && p[3] == '\0');
	CHECK_EQ(env_run1(e, dlen), 3);
	CHECK_NOFAULT(e);

	dtrace_difo_release(dset, env_vs(e));
	dtrace_difo_release(dunset, env_vs(e));
	dtrace_difo_release(dlen, env_vs(e));
	dtrace_difo_release(dld, env_vs(e));
}

static void
test_thread_local_and_associative_variables(void)
{
	vars[0] = mkvar(0x500, DIFV_SCOPE_THREAD, DIFV_KIND_SCALAR, DIF_TYPE_CTF, 0, 8);
	vars[1] = mkvar(0x501, DIFV_SCOPE_GLOBAL, DIFV_KIND_ARRAY, DIF_TYPE_CTF, 0, 8);
	vars[2] = mkvar(0x502, DIFV_SCOPE_THREAD, DIFV_KIND_ARRAY, DIF_TYPE_STRING, DIF_TF_BYREF, 16);

	/* self->x = arg + self->x; return self->x */
	dif_instr_t tls[] = {LDV(LDTS, 0x500, 1), SETX(5, 2), I(ADD, 1, 2, 1), STV(STTS, 0x500, 1),
			     LDV(LDTS, 0x500, 3), RET(3)};
	/* a["ab", 3] += 1 */
	dif_instr_t aa[] = {SETS(S_AB, 1), SETX(6, 2), PUSHTR(DIF_TYPE_STRING, 0, 1), PUSHTV(2),
			    LDV(LDGAA, 0x501, 3), SETX(1, 4), I(ADD, 3, 4, 3), STV(STGAA, 0x501, 3),
			    LDV(LDGAA, 0x501, 5), I(FLUSHTS, 0, 0, 0), RET(5)};
	/* self->s[7] = "abd"; return self->s[7] */
	dif_instr_t ts[] = {SETX(11, 1), PUSHTV(1), SETS(S_ABD, 2), STV(STTAA, 0x502, 2),
			    LDV(LDTAA, 0x502, 3), I(POPTS, 0, 0, 0), RET(3)};
	/* delete: self->x = 0 */
	dif_instr_t del[] = {STV(STTS, 0x500, 0), LDV(LDTS, 0x500, 1), RET(1)};
	dtrace_difo_t *dt = load_v(tls, NELEM(tls), 3), *da = load_v(aa, NELEM(aa), 3);
	dtrace_difo_t *ds = load_v(ts, NELEM(ts), 3), *dd = load_v(del, NELEM(del), 3);

	env_go(e, 64 * 1024);
	testport_switch_thread(1);
	CHECK_EQ(env_run1(e, dt), 10);
	CHECK_EQ(env_run1(e, dt), 20);
	testport_switch_thread(2);
	CHECK_EQ(env_run1(e, dt), 10); /* another thread's self->x */
	testport_switch_thread(1);
	CHECK_EQ(env_run1(e, dt), 30);
	CHECK_EQ(env_run1(e, dd), 0);
	CHECK_EQ(env_run1(e, dt), 10); /* deleted, then recreated */

	CHECK_EQ(env_run1(e, da), 1);
	CHECK_EQ(env_run1(e, da), 2);
	testport_switch_thread(2);
	CHECK_EQ(env_run1(e, da), 3); /* global: shared by threads */

	const char *s = (const char *)(uintptr_t)env_run1(e, ds);
	CHECK_NOFAULT(e);
	CHECK_STREQ(s, "abd");
	/* The value lives in the store, not in scratch. */
	CHECK(!dtrace_dif_inrange((uintptr_t)s, 4, e->m.dtms_scratch_base, HARNESS_SCRATCH));

	dtrace_difo_release(dt, env_vs(e));
	dtrace_difo_release(da, env_vs(e));
	dtrace_difo_release(ds, env_vs(e));
	dtrace_difo_release(dd, env_vs(e));
	env_fini(e);
}

static void
test_pushtr_string_keys_are_bounded(void)
{
	/* A by-reference CTF key larger than INT64_MAX is an ILLOP. */
	vars[0] = mkvar(0x501, DIFV_SCOPE_GLOBAL, DIFV_KIND_ARRAY, DIF_TYPE_CTF, 0, 8);
	dif_instr_t p[] = {SETS(S_AB, 1), SETX(2, 2), PUSHTR(DIF_TYPE_CTF, 2, 1),
			   LDV(LDGAA, 0x501, 3), RET(3)};
	dtrace_difo_t *dp = load_v(p, NELEM(p), 1);

	env_go(e, 16 * 1024);
	CHECK_EQ(env_run1(e, dp), 0);
	CHECK_FAULT(e, DTRACE_CPUF_ILLOP, 0, 8);
	dtrace_difo_release(dp, env_vs(e));
	env_fini(e);
}

int
main(void)
{
	env_init(e, 2);
	test_arithmetic_and_logic();
	test_division_by_zero_faults();
	test_branches_follow_condition_codes();
	test_loads_have_width_and_sign();
	test_user_loads_use_the_user_space();
	test_restricted_loads_need_privilege();
	test_stores_only_to_d_memory();
	test_allocs_and_copys();
	test_string_compare();
	test_global_and_local_variables();
	test_string_filling_its_variable();
	test_thread_local_and_associative_variables();
	test_pushtr_string_keys_are_bounded();
	env_fini(e);
	CHECK_EQ(testport_alloc_outstanding(), 0);
	return TEST_DONE();
}
