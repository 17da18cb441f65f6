/*
 * Every nofault access DIF makes reports a failure faithfully.  For a set of
 * programs covering each place the interpreter, the built-in variables, the
 * subroutines and the dynamic-variable store read D-supplied memory, the
 * test counts the port's nofault calls each instruction makes in a clean run
 * (running every prefix of the program), then makes each call fail in turn
 * (testport_fault_nth) and checks that the program stops with the port's
 * fault code, the address the port reported as cpuc_illval, and the byte
 * offset of the instruction that made the call.  The failing codes rotate
 * through every code a port can return.
 */
#include "dif_harness.h"

static dif_env_t env;
static dif_env_t *e = &env;

static char kstr[64] = "kernel/string/with,delims";
static uint64_t kword = 0x1122334455667788ull;
static uint8_t kip6[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
static char ubuf[64];
static const char json[] = "{\"a\": [1, 2, {\"b\": \"c\"}]}";

typedef struct prog {
	const char *name;
	dif_instr_t ins[16];
	uint32_t n;
	uint32_t site;	   /* an instruction that must make nofault calls */
	bool dyn;	   /* needs the dynamic-variable store */
} prog_t;

/* ints: 0 kstr, 1 &kword, 2 kip6, 3 ubuf, 4 size 8, 5 json, 6 '/', 7 28 (AF_INET6) */
static uint64_t ints[8];
static const char strs[] = ",\0a\0";
static dtrace_difv_t vars[2];

#define P(nm, fpc, dyn, ...)                                                               \
	{                                                                                  \
		nm, {__VA_ARGS__}, NELEM(((dif_instr_t[]){__VA_ARGS__})), fpc, dyn         \
	}

static const prog_t progs[] = {
	P("ldx kernel", 1, false, SETX(1, 1), I(LDX, 1, 0, 2), RET(2)),
	P("ldsb kernel", 1, false, SETX(0, 1), I(LDSB, 1, 0, 2), RET(2)),
	P("rldx kernel", 1, false, SETX(1, 1), I(RLDX, 1, 0, 2), RET(2)),
	P("uldx user", 1, false, SETX(1, 1), I(ULDX, 1, 0, 2), RET(2)),
	P("uldub user", 1, false, SETX(0, 1), I(ULDUB, 1, 0, 2), RET(2)),
	P("scmp", 2, false, SETX(0, 1), SETS(0, 2), I(SCMP, 1, 2, 0), RET(0)),
	P("strlen", 2, false, SETX(0, 1), PUSHTR(DIF_TYPE_STRING, 0, 1), CALL(DIF_SUBR_STRLEN, 3),
	  RET(3)),
	P("strjoin", 4, false, SETX(0, 1), PUSHTR(DIF_TYPE_STRING, 0, 1), SETX(0, 2),
	  PUSHTR(DIF_TYPE_STRING, 0, 2), CALL(DIF_SUBR_STRJOIN, 3), RET(3)),
	P("substr", 4, false, SETX(0, 1), PUSHTR(DIF_TYPE_STRING, 0, 1), SETX(4, 2), PUSHTV(2),
	  CALL(DIF_SUBR_SUBSTR, 3), RET(3)),
	P("toupper", 2, false, SETX(0, 1), PUSHTR(DIF_TYPE_STRING, 0, 1),
	  CALL(DIF_SUBR_TOUPPER, 3), RET(3)),
	P("strtok", 4, false, SETX(0, 1), PUSHTR(DIF_TYPE_STRING, 0, 1), SETS(0, 2),
	  PUSHTR(DIF_TYPE_STRING, 0, 2), CALL(DIF_SUBR_STRTOK, 3), RET(3)),
	P("strchr", 4, false, SETX(0, 1), PUSHTR(DIF_TYPE_STRING, 0, 1), SETX(6, 2), PUSHTV(2),
	  CALL(DIF_SUBR_STRRCHR, 3), RET(3)),
	P("index", 4, false, SETX(0, 1), PUSHTR(DIF_TYPE_STRING, 0, 1), SETS(2, 2),
	  PUSHTR(DIF_TYPE_STRING, 0, 2), CALL(DIF_SUBR_INDEX, 3), RET(3)),
	P("basename", 2, false, SETX(0, 1), PUSHTR(DIF_TYPE_STRING, 0, 1),
	  CALL(DIF_SUBR_BASENAME, 3), RET(3)),
	P("cleanpath", 2, false, SETX(0, 1), PUSHTR(DIF_TYPE_STRING, 0, 1),
	  CALL(DIF_SUBR_CLEANPATH, 3), RET(3)),
	P("strtoll", 2, false, SETX(0, 1), PUSHTR(DIF_TYPE_STRING, 0, 1),
	  CALL(DIF_SUBR_STRTOLL, 3), RET(3)),
	P("json", 4, false, SETX(5, 1), PUSHTR(DIF_TYPE_STRING, 0, 1), SETS(2, 2),
	  PUSHTR(DIF_TYPE_STRING, 0, 2), CALL(DIF_SUBR_JSON, 3), RET(3)),
	P("copyin", 4, false, SETX(0, 1), PUSHTV(1), SETX(4, 2), PUSHTV(2),
	  CALL(DIF_SUBR_COPYIN, 3), RET(3)),
	P("copyinstr", 2, false, SETX(0, 1), PUSHTV(1), CALL(DIF_SUBR_COPYINSTR, 3), RET(3)),
	P("copyout", 6, false, SETX(1, 1), PUSHTV(1), SETX(3, 2), PUSHTV(2), SETX(4, 3), PUSHTV(3),
	  CALL(DIF_SUBR_COPYOUT, 4), RET(4)),
	P("copyoutstr", 6, false, SETX(0, 1), PUSHTV(1), SETX(3, 2), PUSHTV(2), SETX(4, 3),
	  PUSHTV(3), CALL(DIF_SUBR_COPYOUTSTR, 4), RET(4)),
	P("memstr", 6, false, SETX(0, 1), PUSHTV(1), SETX(6, 2), PUSHTV(2), SETX(4, 3), PUSHTV(3),
	  CALL(DIF_SUBR_MEMSTR, 4), RET(4)),
	P("inet_ntop", 4, false, SETX(7, 1), PUSHTV(1), SETX(2, 2), PUSHTV(2),
	  CALL(DIF_SUBR_INET_NTOP, 3), RET(3)),
	P("pushtr strlen", 1, false, SETX(0, 1), PUSHTR(DIF_TYPE_STRING, 0, 1), RET(0)),
	P("stgs string", 1, false, SETX(0, 1), STV(STGS, 0x500, 1), RET(0)),
	P("ldgaa string key", 2, true, SETX(0, 1), PUSHTR(DIF_TYPE_STRING, 4, 1),
	  LDV(LDGAA, 0x501, 2), RET(2)),
	P("stgaa string key", 3, true, SETX(0, 1), PUSHTR(DIF_TYPE_STRING, 4, 1), SETX(4, 2),
	  STV(STGAA, 0x501, 2), RET(2)),
};

/* Nofault calls made by running the first m instructions (then RET). */
static uint64_t
calls_upto(const prog_t *p, uint32_t m)
{
	dif_instr_t ins[17];
	dtrace_difo_t *dp;
	uint64_t before;

	memcpy(ins, p->ins, m * sizeof(dif_instr_t));
	ins[m] = RET(0);
	dp = env_load(e, mkdifo(ins, m + 1, ints, NELEM(ints), strs, sizeof(strs), vars,
				NELEM(vars)));
	before = testport_nofault_calls();
	env_run1(e, dp);
	before = testport_nofault_calls() - before;
	dtrace_difo_release(dp, env_vs(e));
	return before;
}

static void
sweep(const prog_t *p)
{
	dtrace_difo_t *dp = env_load(e, mkdifo(p->ins, p->n, ints, NELEM(ints), strs, sizeof(strs),
						vars, NELEM(vars)));
	uint64_t before, calls, upto[17];
	static const int codes[] = {DTRACEFLT_BADADDR, DTRACEFLT_BADALIGN, DTRACEFLT_KPRIV,
				    DTRACEFLT_UPRIV, DTRACEFLT_ILLOP};
	static const uint32_t flags[] = {DTRACE_CPUF_BADADDR, DTRACE_CPUF_BADALIGN,
					 DTRACE_CPUF_KPRIV, DTRACE_CPUF_UPRIV, DTRACE_CPUF_ILLOP};

	if (dp == NULL)
		return;
	if (p->dyn)
		env_go(e, 64 * 1024);

	/* A clean run: no fault, and it does reach the port. */
	before = testport_nofault_calls();
	env_run1(e, dp);
	calls = testport_nofault_calls() - before;
	test_checks++;
	if ((env_flags(e) & DTRACE_CPUF_FAULT) != 0 || calls == 0) {
		test_failures++;
		fprintf(stderr, "%s: clean run faulted (%#x) or made no nofault call\n", p->name,
			env_flags(e));
	}

	for (uint32_t m = 0; m < p->n; m++)
		upto[m] = calls_upto(p, m);
	upto[p->n] = calls;
	/* The instruction named as the site does reach the port. */
	CHECK(upto[p->site + 1] > upto[p->site]);

	for (uint64_t k = 1; k <= calls; k++) {
		int c = (int)(k % NELEM(codes));
		uint32_t pc = 0;

		while (pc + 1 < p->n && upto[pc + 1] < k)
			pc++;

		testport_fault_nth(k, codes[c]);
		env_run1(e, dp);
		testport_fault_clear();
		test_checks++;
		if ((env_flags(e) & DTRACE_CPUF_FAULT) != flags[c] ||
		    env_illval(e) != testport_last_fault_addr() ||
		    e->m.dtms_fltoffs != (int)(pc * sizeof(dif_instr_t))) {
			test_failures++;
			fprintf(stderr,
				"%s: call %llu/%llu failing with %d: flags %#x (want %#x), illval "
				"%#lx (want %#lx), offset %d (want %u)\n",
				p->name, (unsigned long long)k, (unsigned long long)calls, codes[c],
				env_flags(e) & DTRACE_CPUF_FAULT, flags[c],
				(unsigned long)env_illval(e),
				(unsigned long)testport_last_fault_addr(), e->m.dtms_fltoffs,
				(unsigned)(pc * sizeof(dif_instr_t)));
		}
	}
	dtrace_difo_release(dp, env_vs(e));
	if (p->dyn)
		dtrace_dstate_fini(&env_vs(e)->dtvs_dynvars);
}

int
main(void)
{
	env_init(e, 1);
	ints[0] = (uintptr_t)kstr;
	ints[1] = (uintptr_t)&kword;
	ints[2] = (uintptr_t)kip6;
	ints[3] = (uintptr_t)ubuf;
	ints[4] = 8;
	ints[5] = (uintptr_t)json;
	ints[6] = '/';
	ints[7] = 28;
	vars[0] = mkvar(0x500, DIFV_SCOPE_GLOBAL, DIFV_KIND_SCALAR, DIF_TYPE_STRING, DIF_TF_BYREF, 32);
	vars[1] = mkvar(0x501, DIFV_SCOPE_GLOBAL, DIFV_KIND_ARRAY, DIF_TYPE_CTF, 0, 8);

	for (size_t i = 0; i < NELEM(progs); i++)
		sweep(&progs[i]);

	/* Built-in strings copied for a consumer without kernel access. */
	e->m.dtms_access = DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
	prog_t ex = P("execname copy", 0, false, LDV(LDGS, DIF_VAR_EXECNAME, 1), RET(1));
	sweep(&ex);
	e->m.dtms_access = DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;

	env_fini(e);
	CHECK_EQ(testport_alloc_outstanding(), 0);
	return TEST_DONE();
}
