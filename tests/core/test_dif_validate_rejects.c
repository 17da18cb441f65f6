/*
 * The DIF validator accepts well-formed DIF and rejects, with a precise
 * reason, every DIFO that could misbehave: each rejection rule is exercised
 * here and the reason string checked.
 */
#include "dif_harness.h"

#define N(a) NELEM(a)

static uint64_t ints[] = {42, 7};
static char strs[] = "hello\0world";

static dtrace_difo_t
difo(dif_instr_t *buf, uint32_t len)
{
	dtrace_difo_t dp;

	memset(&dp, 0, sizeof(dp));
	dp.dtdo_buf = buf;
	dp.dtdo_len = len;
	dp.dtdo_inttab = ints;
	dp.dtdo_intlen = N(ints);
	dp.dtdo_strtab = strs;
	dp.dtdo_strlen = sizeof(strs);
	dp.dtdo_rtype.dtdt_kind = DIF_TYPE_CTF;
	dp.dtdo_rtype.dtdt_size = 8;
	return dp;
}

static dtrace_difv_t
var(uint32_t id, uint8_t scope, uint8_t kind, uint8_t flags, uint32_t size)
{
	return mkvar(id, scope, kind, DIF_TYPE_CTF, flags, size);
}

static char why[256];
static uint32_t priv = DTRACE_PRIV_ALL;
static dtrace_vstate_t *vstate;

/* Expect rejection with `reason` in the message. */
static void
rejects(const dtrace_difo_t *dp, const char *reason, int line)
{
	int n = dtrace_difo_validate(dp, vstate, DIF_DIR_NREGS, priv, why, sizeof(why));

	test_checks++;
	if (n == 0 || strstr(why, reason) == NULL) {
		test_failures++;
		fprintf(stderr, "line %d: expected rejection \"%s\", got %d errors: \"%s\"\n", line,
			reason, n, why);
	}
}

static void
accepts(const dtrace_difo_t *dp, int line)
{
	int n = dtrace_difo_validate(dp, vstate, DIF_DIR_NREGS, priv, why, sizeof(why));

	test_checks++;
	if (n != 0) {
		test_failures++;
		fprintf(stderr, "line %d: expected acceptance, got %d errors: \"%s\"\n", line, n,
			why);
	}
}

#define REJECTS(dp, reason) rejects(&(dp), reason, __LINE__)
#define ACCEPTS(dp) accepts(&(dp), __LINE__)

static void
test_accepts_good_programs(void)
{
	dif_instr_t p1[] = {SETX(0, 1), SETX(1, 2), I(ADD, 1, 2, 3), I(CMP, 3, 1, 0), BR(BLE, 6),
			    I(MOV, 3, 0, 1), RET(1)};
	dtrace_difo_t d = difo(p1, N(p1));
	ACCEPTS(d);
	CHECK_STREQ(why, "");

	dif_instr_t p2[] = {SETS(6, 1), RET(1)};
	d = difo(p2, N(p2));
	d.dtdo_rtype.dtdt_kind = DIF_TYPE_STRING;
	d.dtdo_rtype.dtdt_flags = DIF_TF_BYREF;
	d.dtdo_rtype.dtdt_size = 256;
	ACCEPTS(d);

	/* ret %r0 is fine (returns 0). */
	dif_instr_t p3[] = {RET(0)};
	d = difo(p3, N(p3));
	ACCEPTS(d);
}

static void
test_rejects_bad_opcodes(void)
{
	dif_instr_t p[] = {I(OR, 1, 1, 1), RET(1)};
	dtrace_difo_t d = difo(p, N(p));

	p[0] = DIF_INSTR_FMT(0, 0, 0, 1);
	REJECTS(d, "DIF offset 0: invalid opcode 0");
	p[0] = DIF_INSTR_FMT(81, 0, 0, 1);
	REJECTS(d, "invalid opcode 81");
	p[0] = DIF_INSTR_FMT(255, 0, 0, 1);
	REJECTS(d, "invalid opcode 255");
	p[0] = DIF_INSTR_FMT(DIF_OP_STGA, 0, 1, 1);
	REJECTS(d, "(stga): no built-in array is writable");
	p[0] = DIF_INSTR_XLATE(DIF_OP_XLATE, 0, 1);
	REJECTS(d, "(xlate): translator references must be resolved by the compiler");
	p[0] = DIF_INSTR_XLATE(DIF_OP_XLARG, 0, 1);
	REJECTS(d, "(xlarg): translator");
	p[0] = DIF_INSTR_FMT(DIF_OP_LDTA, 0, 1, 1);
	REJECTS(d, "(ldta): there are no thread-local arrays");
}

static void
test_rejects_bad_registers(void)
{
	dif_instr_t p[] = {I(ADD, 1, 2, 3), RET(3)};
	dtrace_difo_t d = difo(p, N(p));

	p[0] = I(ADD, 8, 2, 3);
	REJECTS(d, "DIF offset 0 (add): invalid register %r8");
	p[0] = I(ADD, 1, 200, 3);
	REJECTS(d, "invalid register %r200");
	p[0] = I(ADD, 1, 2, 9);
	REJECTS(d, "invalid register %r9");
	p[0] = I(ADD, 1, 2, 0);
	REJECTS(d, "(add): cannot write to %r0");
	p[0] = I(MOV, 1, 0, 0);
	REJECTS(d, "(mov): cannot write to %r0");
	p[0] = SETX(0, 0);
	REJECTS(d, "(setx): cannot write to %r0");
	p[0] = I(LDX, 1, 0, 0);
	REJECTS(d, "(ldx): cannot write to %r0");
	p[0] = CALL(DIF_SUBR_STRLEN, 0);
	REJECTS(d, "(call): cannot write to %r0");
	p[0] = I(STX, 1, 0, 0);
	REJECTS(d, "(stx): cannot store through %r0");
	p[0] = I(STB, 9, 0, 2);
	REJECTS(d, "(stb): invalid register %r9");
	p[0] = I(STX, 1, 0, 9);
	REJECTS(d, "(stx): invalid register %r9");
	p[0] = I(CMP, 1, 9, 0);
	REJECTS(d, "(cmp): invalid register %r9");
	p[0] = I(TST, 9, 0, 0);
	REJECTS(d, "(tst): invalid register %r9");
	p[0] = SETS(0, 9);
	REJECTS(d, "(sets): invalid register %r9");
	p[0] = LDV(LDGS, DIF_VAR_PID, 9);
	REJECTS(d, "(ldgs): invalid register %r9");
	p[0] = CALL(DIF_SUBR_STRLEN, 9);
	REJECTS(d, "(call): invalid register %r9");
	p[0] = DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_STRING, 9, 1);
	REJECTS(d, "(pushtr): invalid register %r9");
	p[0] = DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_STRING, 1, 9);
	REJECTS(d, "(pushtr): invalid register %r9");
	p[0] = DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 9, 1);
	REJECTS(d, "(pushtv): invalid register %r9");
	p[0] = DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 9);
	REJECTS(d, "(pushtv): invalid register %r9");
	p[0] = I(NOT, 1, 0, 9);
	REJECTS(d, "(not): invalid register %r9");
	p[1] = RET(8);
	p[0] = I(NOP, 0, 0, 0);
	REJECTS(d, "DIF offset 4 (ret): invalid register %r8");

	/* A smaller register file from the DOF header is honoured. */
	p[0] = I(ADD, 1, 2, 3);
	p[1] = RET(3);
	test_checks++;
	if (dtrace_difo_validate(&d, NULL, 3, priv, why, sizeof(why)) == 0 ||
	    strstr(why, "invalid register %r3") == NULL) {
		test_failures++;
		fprintf(stderr, "nregs 3 not honoured: %s\n", why);
	}
}

static void
test_rejects_reserved_bits(void)
{
	dif_instr_t p[] = {I(NOP, 0, 0, 0), RET(1)};
	dtrace_difo_t d = difo(p, N(p));

	p[0] = I(NOP, 0, 0, 1);
	REJECTS(d, "(nop): non-zero reserved bits");
	p[0] = I(CMP, 1, 2, 3);
	REJECTS(d, "(cmp): non-zero reserved bits");
	p[0] = I(TST, 1, 2, 0);
	REJECTS(d, "(tst): non-zero reserved bits");
	p[0] = I(MOV, 1, 2, 3);
	REJECTS(d, "(mov): non-zero reserved bits");
	p[0] = I(POPTS, 1, 0, 0);
	REJECTS(d, "(popts): non-zero reserved bits");
	p[0] = I(NOP, 0, 0, 0);
	p[1] = I(RET, 1, 0, 1);
	REJECTS(d, "(ret): non-zero reserved bits");
}

static void
test_rejects_bad_branches(void)
{
	dif_instr_t p[] = {I(NOP, 0, 0, 0), BR(BA, 0), RET(1)};
	dtrace_difo_t d = difo(p, N(p));

	REJECTS(d, "DIF offset 4 (ba): backward branch to instruction 0");
	p[1] = BR(BE, 1);
	REJECTS(d, "(be): backward branch to instruction 1");
	p[1] = BR(BNE, 3);
	REJECTS(d, "(bne): branch target 3 is past the last instruction");
	p[1] = BR(BLEU, 0xffffff);
	REJECTS(d, "branch target 16777215 is past");
	p[1] = BR(BGU, 2);
	ACCEPTS(d);
}

static void
test_rejects_bad_tables(void)
{
	dif_instr_t p[] = {SETX(2, 1), RET(1)};
	dtrace_difo_t d = difo(p, N(p));

	REJECTS(d, "(setx): integer table index 2 out of range");
	p[0] = SETS(sizeof(strs), 1);
	REJECTS(d, "(sets): string table offset 12 out of range");

	char bad[] = {'a', 'b'};
	p[0] = SETS(0, 1);
	d.dtdo_strtab = bad;
	d.dtdo_strlen = 2;
	REJECTS(d, "string table is not NUL-terminated");

	d = difo(p, N(p));
	d.dtdo_inttab = NULL;
	REJECTS(d, "DIF object table missing");
	d = difo(p, N(p));
	d.dtdo_strtab = NULL;
	REJECTS(d, "DIF object table missing");
	d = difo(p, N(p));
	d.dtdo_varlen = 1;
	REJECTS(d, "DIF object table missing");
	d = difo(p, N(p));
	d.dtdo_buf = NULL;
	REJECTS(d, "empty DIF object");

	d = difo(p, 0);
	REJECTS(d, "empty DIF object");
}

static void
test_rejects_missing_ret(void)
{
	dif_instr_t p[] = {SETX(0, 1), I(MOV, 1, 0, 2)};
	dtrace_difo_t d = difo(p, N(p));

	REJECTS(d, "DIF offset 4 (mov): the last instruction must be ret");
}

static void
test_rejects_bad_return_types(void)
{
	dif_instr_t p[] = {SETX(0, 1), RET(1)};
	dtrace_difo_t d = difo(p, N(p));

	d.dtdo_rtype.dtdt_size = 3;
	REJECTS(d, "bad return size 3");
	d.dtdo_rtype.dtdt_size = 16;
	REJECTS(d, "bad return size 16");
	d.dtdo_rtype.dtdt_flags = DIF_TF_BYREF;
	d.dtdo_rtype.dtdt_size = 0;
	REJECTS(d, "zero-sized by-reference return");
	d.dtdo_rtype.dtdt_size = 2 * 1024 * 1024;
	REJECTS(d, "exceeds the 1048576-byte limit");
	d.dtdo_rtype.dtdt_size = 16;
	ACCEPTS(d);
	d.dtdo_rtype.dtdt_flags = DIF_TF_BYUREF;
	d.dtdo_rtype.dtdt_size = 0;
	REJECTS(d, "zero-sized by-reference return");
	d.dtdo_rtype.dtdt_size = DTRACE_DIF_BYREF_MAX + 1;
	REJECTS(d, "exceeds the 1048576-byte limit");
	d.dtdo_rtype.dtdt_size = DTRACE_DIF_BYREF_MAX;
	ACCEPTS(d);
	/* a string's size may be 0: strsize decides */
	d.dtdo_rtype.dtdt_kind = DIF_TYPE_STRING;
	d.dtdo_rtype.dtdt_flags = DIF_TF_BYREF;
	d.dtdo_rtype.dtdt_size = 0;
	ACCEPTS(d);
	d.dtdo_rtype.dtdt_kind = DIF_TYPE_CTF;
	d.dtdo_rtype.dtdt_size = 16;
	d.dtdo_rtype.dtdt_flags = DIF_TF_BYREF | DIF_TF_BYUREF;
	REJECTS(d, "both by-reference and by-user-reference");
	d.dtdo_rtype.dtdt_flags = 0;
	d.dtdo_rtype.dtdt_size = 8;
	d.dtdo_rtype.dtdt_kind = 7;
	REJECTS(d, "unknown return type kind 7");
}

static void
test_rejects_bad_builtin_variables(void)
{
	dif_instr_t p[] = {LDV(LDGS, DIF_VAR_TIMESTAMP, 1), RET(1)};
	dtrace_difo_t d = difo(p, N(p));

	ACCEPTS(d);
	p[0] = LDV(LDGS, 0x1ff, 1);
	REJECTS(d, "(ldgs): unknown built-in variable 511");
	p[0] = LDV(LDGS, DIF_VAR_THREADNAME, 1);
	REJECTS(d, "threadname is not available in this core");
	p[0] = LDV(LDGS, DIF_VAR_EXECARGS, 1);
	REJECTS(d, "execargs is not available");
	p[0] = LDV(LDGS, DIF_VAR_CPU, 1);
	ACCEPTS(d);
	p[0] = STV(STGS, DIF_VAR_PID, 1);
	REJECTS(d, "(stgs): variable 278 is a built-in and cannot be stored to");
	p[0] = LDV(LDTS, DIF_VAR_PID, 1);
	REJECTS(d, "(ldts): variable 278 is a built-in");
	p[0] = DIF_INSTR_LDA(DIF_OP_LDGA, DIF_VAR_ARGS, 1, 2);
	ACCEPTS(d);
	p[0] = DIF_INSTR_LDA(DIF_OP_LDGA, DIF_VAR_UREGS, 1, 2);
	ACCEPTS(d);
	p[0] = DIF_INSTR_LDA(DIF_OP_LDGA, DIF_VAR_REGS, 1, 2);
	REJECTS(d, "(ldga): regs[] is not available in this core");
	p[0] = DIF_INSTR_LDA(DIF_OP_LDGA, DIF_VAR_VMREGS, 1, 2);
	REJECTS(d, "(ldga): vmregs[] is not available in this core");
	p[0] = DIF_INSTR_LDA(DIF_OP_LDGA, DIF_VAR_ARGS, 1, 0);
	REJECTS(d, "(ldga): cannot write to %r0");
	p[0] = DIF_INSTR_LDA(DIF_OP_LDGA, 0x80, 1, 2);
	REJECTS(d, "(ldga): unknown built-in array 128");
	p[0] = DIF_INSTR_LDA(DIF_OP_LDGA, DIF_VAR_ARGS, 9, 2);
	REJECTS(d, "(ldga): invalid register %r9");
}

static void
test_rejects_undeclared_or_mismatched_variables(void)
{
	dif_instr_t p[] = {LDV(LDGS, 0x500, 1), RET(1)};
	dtrace_difv_t vt[3];
	dtrace_difo_t d = difo(p, N(p));

	REJECTS(d, "(ldgs): variable 1280 is not declared in the variable table");
	vt[0] = var(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, 0, 8);
	vt[1] = var(0x501, DIFV_SCOPE_THREAD, DIFV_KIND_ARRAY, 0, 8);
	vt[2] = var(0x500, DIFV_SCOPE_LOCAL, DIFV_KIND_SCALAR, 0, 8);
	d.dtdo_vartab = vt;
	d.dtdo_varlen = 3;
	ACCEPTS(d);
	p[0] = STV(STGS, 0x500, 1);
	ACCEPTS(d);
	p[0] = LDV(LDLS, 0x500, 1);
	ACCEPTS(d); /* same id, other scope */
	p[0] = LDV(LDTS, 0x500, 1);
	REJECTS(d, "(ldts): variable 1280 is not declared");
	p[0] = LDV(LDGAA, 0x500, 1);
	REJECTS(d, "(ldgaa): variable 1280 is a scalar, used as an associative array");
	p[0] = STV(STTAA, 0x501, 1);
	ACCEPTS(d);
	p[0] = STV(STTS, 0x501, 1);
	REJECTS(d, "(stts): variable 1281 is an associative array, used as a scalar");
	p[0] = STV(STGAA, 0x501, 1);
	REJECTS(d, "(stgaa): variable 1281 is not declared");
}

static void
test_rejects_bad_vartab_entries(void)
{
	dif_instr_t p[] = {RET(0)};
	dtrace_difv_t vt[2];
	dtrace_difo_t d = difo(p, N(p));

	d.dtdo_vartab = vt;
	d.dtdo_varlen = 1;
	vt[0] = var(0x500, 3, DIFV_KIND_SCALAR, 0, 8);
	REJECTS(d, "variable table entry 0: unknown scope");
	vt[0] = var(0x500, DIFV_SCOPE_GLOBAL, 5, 0, 8);
	REJECTS(d, "variable table entry 0: unknown kind");
	vt[0] = var(0x10000, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, 0, 8);
	REJECTS(d, "id exceeds DIF_VARIABLE_MAX");
	vt[0] = var(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, DIF_TF_BYREF, 0);
	REJECTS(d, "zero-sized by-reference variable");
	vt[0] = var(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, DIF_TF_BYREF, 16385);
	REJECTS(d, "larger than 16384 bytes");
	vt[0] = var(0x500, DIFV_SCOPE_THREAD, DIFV_KIND_SCALAR, DIF_TF_BYREF, 16385);
	ACCEPTS(d); /* thread-locals live in the dynamic store */
	vt[0] = var(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, DIF_TF_BYUREF, 8);
	REJECTS(d, "cannot hold user-space data by reference");
	vt[0] = var(0x500, DIFV_SCOPE_LOCAL, DIFV_KIND_ARRAY, 0, 8);
	REJECTS(d, "clause-local variables cannot be arrays");
	vt[0] = var(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, 0, 8);
	vt[0].dtdv_type.dtdt_kind = 9;
	REJECTS(d, "unknown type kind");

	d.dtdo_varlen = 2;
	vt[0] = var(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, 0, 8);
	vt[1] = var(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, 0, 4);
	REJECTS(d, "variable table entry 1: conflicting definitions of one variable");
	vt[1] = var(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, 0, 8);
	ACCEPTS(d);
}

static void
test_rejects_redefinition_across_difos(void)
{
	dtrace_vstate_t vs;
	dtrace_statvar_t sv, *globals[1] = {&sv};
	dtrace_difv_t tl[1];
	dif_instr_t p[] = {RET(0)};
	dtrace_difv_t vt[1];
	dtrace_difo_t d = difo(p, N(p));

	memset(&vs, 0, sizeof(vs));
	memset(&sv, 0, sizeof(sv));
	sv.dtsv_var = var(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, 0, 8);
	vs.dtvs_globals = globals;
	vs.dtvs_nglobals = 1;
	tl[0] = var(0x500, DIFV_SCOPE_THREAD, DIFV_KIND_SCALAR, DIF_TF_BYREF, 32);
	vs.dtvs_tlocals = tl;
	vs.dtvs_ntlocals = 1;
	vstate = &vs;

	d.dtdo_vartab = vt;
	d.dtdo_varlen = 1;
	vt[0] = var(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, 0, 8);
	ACCEPTS(d);
	vt[0] = var(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_ARRAY, 0, 8);
	REJECTS(d, "kind or type differs from an earlier definition");
	vt[0] = var(0x500, DIFV_SCOPE_THREAD, DIFV_KIND_SCALAR, DIF_TF_BYREF, 64);
	REJECTS(d, "kind or type differs from an earlier definition");
	vt[0] = var(0x500, DIFV_SCOPE_THREAD, DIFV_KIND_SCALAR, DIF_TF_BYREF, 32);
	ACCEPTS(d);
	vstate = NULL;
}

static void
test_rejects_bad_subroutines(void)
{
	dif_instr_t p[] = {CALL(DIF_SUBR_STRLEN, 1), RET(1)};
	dtrace_difo_t d = difo(p, N(p));

	ACCEPTS(d);
	p[0] = CALL(49, 1);
	REJECTS(d, "(call): unknown subroutine 49");
	p[0] = CALL(DIF_SUBR_MAX + 1, 1);
	REJECTS(d, "unknown subroutine 61");
	p[0] = CALL(0xffff, 1);
	REJECTS(d, "unknown subroutine 65535");
	p[0] = CALL(DIF_SUBR_MUTEX_OWNED, 1);
	REJECTS(d, "mutex_owned() is not available in this core");
	p[0] = CALL(DIF_SUBR_GETF, 1);
	REJECTS(d, "getf() is not available");
	p[0] = CALL(DIF_SUBR_DDI_PATHNAME, 1);
	REJECTS(d, "ddi_pathname() is not available");

	/* Destructive subroutines need the destructive option and proc privilege. */
	p[0] = CALL(DIF_SUBR_COPYOUT, 1);
	priv = DTRACE_PRIV_ALL;
	REJECTS(d, "destructive subroutine copyout() needs the destructive option");
	CHECK(dtrace_difo_destructive(&d));
	priv = DTRACE_PRIV_ALL | DTRACE_DIF_DESTRUCTIVE_OK;
	ACCEPTS(d);
	priv = DTRACE_PRIV_USER | DTRACE_DIF_DESTRUCTIVE_OK;
	REJECTS(d, "copyout() needs the proc privilege");
	p[0] = CALL(DIF_SUBR_COPYOUTSTR, 1);
	REJECTS(d, "copyoutstr() needs the proc privilege");
	priv = DTRACE_PRIV_PROC | DTRACE_DIF_DESTRUCTIVE_OK;
	ACCEPTS(d);
	priv = DTRACE_PRIV_ALL;
	p[0] = CALL(DIF_SUBR_STRLEN, 1);
	CHECK(!dtrace_difo_destructive(&d));
}

static void
test_rejects_tuple_stack_overflow(void)
{
	dif_instr_t p[12];
	dtrace_difo_t d;
	uint32_t i;

	for (i = 0; i < 8; i++)
		p[i] = PUSHTV(1);
	p[8] = CALL(DIF_SUBR_STRLEN, 1);
	p[9] = RET(1);
	d = difo(p, 10);
	ACCEPTS(d);
	p[8] = PUSHTV(1);
	REJECTS(d, "DIF offset 32 (pushtv): tuple stack overflow: more than 8 entries");
	p[8] = I(POPTS, 0, 0, 0);
	p[9] = PUSHTV(1);
	p[10] = RET(1);
	d = difo(p, 11);
	ACCEPTS(d);

	/*
	 * Only one path overflows: 7 pushes, then a branch that skips one
	 * more push; the join point sees depth 8 from the fall-through path,
	 * and the final push overflows on that path only.
	 */
	for (i = 0; i < 7; i++)
		p[i] = PUSHTV(1);
	p[7] = BR(BE, 9);
	p[8] = PUSHTV(1);
	p[9] = PUSHTV(1);
	p[10] = RET(1);
	d = difo(p, 11);
	REJECTS(d, "DIF offset 36 (pushtv): tuple stack overflow");
	p[8] = I(FLUSHTS, 0, 0, 0);
	ACCEPTS(d);

	/* Code after an unconditional branch is not reached by fall-through. */
	for (i = 0; i < 8; i++)
		p[i] = PUSHTV(1);
	p[8] = BR(BA, 10);
	p[9] = PUSHTV(1);
	p[10] = RET(1);
	d = difo(p, 11);
	ACCEPTS(d);

	/* The depth analysis needs memory: without it, a refusal, not a pass. */
	for (uint64_t nth = 1; nth <= 2; nth++) {
		uint64_t before = testport_alloc_outstanding();

		testport_alloc_fail_nth(nth);
		REJECTS(d, "out of memory checking the tuple stack");
		testport_alloc_fail_nth(0);
		CHECK_EQ(testport_alloc_outstanding(), before);
	}
	ACCEPTS(d);

	p[0] = DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, 5, 0, 1);
	REJECTS(d, "(pushtr): invalid by-reference tuple type 5");
	p[0] = DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_STRING, 0, 1);
	REJECTS(d, "(pushtv): invalid by-value tuple type 1");
}

static void
test_counts_every_error(void)
{
	dif_instr_t p[] = {I(ADD, 9, 9, 0), DIF_INSTR_FMT(99, 0, 0, 0), SETX(9, 1)};
	dtrace_difo_t d = difo(p, N(p));
	int n = dtrace_difo_validate(&d, NULL, DIF_DIR_NREGS, priv, why, sizeof(why));

	/* two bad registers, %r0 write, bad opcode, bad index, no ret */
	CHECK_EQ(n, 6);
	CHECK(strstr(why, "DIF offset 0 (add): invalid register %r9") != NULL);
	/* A tiny buffer is truncated, never overrun. */
	char small[8];
	memset(small, 'x', sizeof(small));
	dtrace_difo_validate(&d, NULL, DIF_DIR_NREGS, priv, small, 5);
	CHECK_STREQ(small, "DIF ");
	CHECK(small[5] == 'x');
	/* No buffer at all. */
	CHECK_EQ(dtrace_difo_validate(&d, NULL, DIF_DIR_NREGS, priv, NULL, 0), 6);
}

int
main(void)
{
	test_accepts_good_programs();
	test_rejects_bad_opcodes();
	test_rejects_bad_registers();
	test_rejects_reserved_bits();
	test_rejects_bad_branches();
	test_rejects_bad_tables();
	test_rejects_missing_ret();
	test_rejects_bad_return_types();
	test_rejects_bad_builtin_variables();
	test_rejects_undeclared_or_mismatched_variables();
	test_rejects_bad_vartab_entries();
	test_rejects_redefinition_across_difos();
	test_rejects_bad_subroutines();
	test_rejects_tuple_stack_overflow();
	test_counts_every_error();
	return TEST_DONE();
}
