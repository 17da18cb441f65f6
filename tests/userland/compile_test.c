/*
 * compile_test.c: the D compiler against a fixed probe list.
 *
 * Each case compiles a program and checks either the DOF produced (header,
 * ECBs, actions, disassembly) or the exact DTrace error message and tag.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_compile.h"

static const dtrace_probedesc_t probes[] = {
	{1, "dtrace", "", "", "BEGIN"},
	{2, "dtrace", "", "", "END"},
	{3, "dtrace", "", "", "ERROR"},
	{4, "syscall", "", "read", "entry"},
	{5, "syscall", "", "read", "return"},
	{6, "profile", "", "", "tick-1s"},
};

static int
glob(const char *p, const char *s)
{
	if (*p == '\0')
		return *s == '\0';
	if (*p == '*')
		return glob(p + 1, s) || (*s != '\0' && glob(p, s + 1));
	if (*s != '\0' && (*p == '?' || *p == *s))
		return glob(p + 1, s + 1);
	return 0;
}

static int
field(const char *p, const char *s)
{
	return *p == '\0' || glob(p, s);
}

static int
fake_match(void *arg, const dtrace_probedesc_t *pd, dtrace_probedesc_t *first)
{
	int n = 0;
	(void)arg;
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		const dtrace_probedesc_t *p = &probes[i];
		if (field(pd->dtpd_provider, p->dtpd_provider) && field(pd->dtpd_mod, p->dtpd_mod) &&
		    field(pd->dtpd_func, p->dtpd_func) && field(pd->dtpd_name, p->dtpd_name)) {
			if (n++ == 0 && first != NULL)
				*first = *p;
		}
	}
	return n;
}

static int
fake_arg(void *arg, dtrace_argdesc_t *a)
{
	(void)arg;
	if (a->dtargd_id != 4) {
		return -1;
	}
	if (a->dtargd_ndx > 2) {
		a->dtargd_ndx = DTRACE_ARGNONE;
		return 0;
	}
	static const char *t[] = {"int", "char *", "size_t"};
	snprintf(a->dtargd_native, sizeof(a->dtargd_native), "%s", t[a->dtargd_ndx]);
	return 0;
}

static int failures, passes;

static dt_cprog_t *
compile(const char *src, uint32_t flags)
{
	dt_copts_t o;
	memset(&o, 0, sizeof(o));
	o.flags = flags;
	o.pspec = DTRACE_PROBESPEC_NAME;
	o.ops.probe_match = fake_match;
	o.ops.probe_arg = fake_arg;
	return dt_compile_string(src, &o);
}

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (cond) {                                                                        \
			passes++;                                                                  \
		} else {                                                                           \
			failures++;                                                                \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                       \
			fprintf(stderr, __VA_ARGS__);                                              \
			fprintf(stderr, "\n");                                                     \
		}                                                                                  \
	} while (0)

static void
expect_ok(const char *src)
{
	dt_cprog_t *p = compile(src, 0);
	CHECK(p != NULL && !p->err.failed && p->dof != NULL, "expected success for <%s>: %s", src,
	      p ? p->err.text : "NULL");
	dt_cprog_free(p);
}

static void
expect_err(const char *src, const char *tag, const char *text)
{
	dt_cprog_t *p = compile(src, 0);
	CHECK(p != NULL && p->err.failed, "expected failure for <%s>", src);
	if (p != NULL && p->err.failed) {
		CHECK(strcmp(dt_errtag_name(p->err.tag), tag) == 0, "<%s>: tag %s, expected %s (%s)", src,
		      dt_errtag_name(p->err.tag), tag, p->err.text);
		CHECK(strcmp(p->err.text, text) == 0, "<%s>:\n  got      '%s'\n  expected '%s'", src,
		      p->err.text, text);
	}
	dt_cprog_free(p);
}

static void
test_first_program(void)
{
	dt_cprog_t *p = compile("BEGIN { trace(1); printf(\"%d\\n\", 2); @[1] = count(); exit(0); }", 0);
	CHECK(p && !p->err.failed, "first program: %s", p->err.text);
	const dof_hdr_t *h = p->dof;
	CHECK(p->dof_size >= sizeof(*h) && memcmp(h->dofh_ident, DOF_MAG_STRING, 4) == 0, "DOF magic");
	CHECK(h->dofh_loadsz == p->dof_size && h->dofh_filesz == p->dof_size, "DOF sizes");
	CHECK(p->necbs == 1 && p->ndescs == 1 && p->descs[0].matched == 1, "one ECB for BEGIN");
	/* trace, printf, agg id, agg key, count, exit */
	CHECK(p->nacts == 6, "six actions, got %zu", p->nacts);
	if (p->nacts == 6) {
		CHECK(p->acts[0].kind == DTRACEACT_DIFEXPR, "trace is DIFEXPR");
		CHECK(p->acts[1].kind == DTRACEACT_PRINTF && strcmp(p->acts[1].format, "%d\n") == 0, "printf");
		CHECK(p->acts[2].kind == DTRACEACT_DIFEXPR && p->acts[2].agg == 0, "agg id record");
		CHECK(p->acts[4].kind == DTRACEAGG_COUNT, "count");
		CHECK(p->acts[5].kind == DTRACEACT_EXIT, "exit");
	}
	CHECK(p->naggs == 1 && p->aggs[0].name[0] == '\0' && p->aggs[0].id == 1, "anonymous aggregation");
	/* walk the sections: every ECB's action section holds 6 actdescs with DTrace's kinds */
	const dof_sec_t *sec = (const dof_sec_t *)((const char *)p->dof + h->dofh_secoff);
	int necb = 0;
	for (uint32_t i = 0; i < h->dofh_secnum; i++) {
		if (sec[i].dofs_type == DOF_SECT_ECBDESC) {
			const dof_ecbdesc_t *e = (const void *)((const char *)p->dof + sec[i].dofs_offset);
			const dof_sec_t *as = &sec[e->dofe_actions];
			const dof_actdesc_t *ad = (const void *)((const char *)p->dof + as->dofs_offset);
			CHECK(as->dofs_size / sizeof(*ad) == 6, "6 actdescs");
			CHECK(ad[4].dofa_kind == DTRACEAGG_COUNT && ad[4].dofa_ntuple == 2, "count ntuple 2 (id + key)");
			CHECK(ad[1].dofa_strtab != DOF_SECIDX_NONE, "printf format in string table");
			necb++;
		}
	}
	CHECK(necb == 1, "one ECBDESC section");
	dt_cprog_free(p);
}

static void
test_disassembly(void)
{
	dt_copts_t o;
	memset(&o, 0, sizeof(o));
	o.ops.probe_match = fake_match;
	dt_cprog_t *p = dt_compile_string("BEGIN { x = 1 + 2; trace(x); }", &o);
	CHECK(p && !p->err.failed, "disassembly program: %s", p->err.text);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	dt_cprog_disassemble(p, f);
	fclose(f);
	CHECK(strstr(buf, "setx DT_INTEGER[0], %r1\t\t! 0x3") != NULL, "folded constant in disassembly:\n%s", buf);
	CHECK(strstr(buf, "stgs %r1, DT_VAR(1280)\t\t! DT_VAR(1280) = \"x\"") != NULL, "stgs of x:\n%s", buf);
	CHECK(strstr(buf, "x                500  scl glb w    D type (integer) (size 4)") != NULL, "vartab:\n%s", buf);
	free(buf);
	dt_cprog_free(p);
}

int
main(void)
{
	test_first_program();
	test_disassembly();

	expect_ok("syscall::read:entry /pid == 1/ { self->ts = timestamp; }\n"
		  "syscall::read:return /self->ts/ { @a[execname] = quantize(timestamp - self->ts); self->ts = 0; }");
	expect_ok("BEGIN { a[\"x\", 1] = 2; trace(a[\"x\", 1]); }");
	expect_ok("BEGIN { this->x = 3; trace(this->x * 2 + (this->x > 2 ? 1 : 0)); }");
	expect_ok("BEGIN { trace(strlen(\"abc\")); trace(strjoin(\"a\", probename)); }");
	expect_ok("syscall::read:entry { trace(args[2]); trace(stringof(args[1])); }");
	expect_ok("BEGIN { @c = lquantize(1, 0, 100, 10); @d = llquantize(5, 10, 0, 6, 20); printa(@c); }");
	expect_ok("struct s { int a; char b[4]; int c:3; }; BEGIN { trace(sizeof(struct s)); trace(offsetof(struct s, b)); }");
	expect_ok("typedef unsigned int u; inline int K = 7; BEGIN { x = (u)K; trace(x); }");
	expect_ok("enum e { A, B = 5, C }; BEGIN { trace(C); }");
	expect_ok("#pragma D option quiet\nBEGIN { exit(0); }");
	expect_ok("tick-1s, BEGIN { trace(1) }");

	expect_err("BEGIN { x = \"a\" + \"b\"; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"string\" + \"string\"");
	expect_err("BEGIN { trace(offsetof(struct s, c)); }", "D_OFFSETOF_TYPE",
		   "line 1: offsetof operand must be a struct or union type");
	expect_err("BEGIN\n{\n\ttrace(y);\n}", "D_IDENT_UNDEF", "line 3: failed to resolve y: Unknown variable name");
	expect_err("BEGIN { trace(1) ", "D_SYNTAX", "line 1: syntax error");
	expect_err("nosuch:::probe { trace(1); }", "D_PDESC_ZERO",
		   "line 1: probe description nosuch:::probe does not match any probes");
	expect_err("BEGIN { @a = count(); @a = sum(1); }", "D_AGG_REDEF",
		   "line 1: aggregation redefined: @a\n\t current: @a = sum( )\n\tprevious: @a = count( ) : line 1");
	expect_err("BEGIN { @a = 1; }", "D_AGG_FUNC", "line 1: @a must be assigned the result of an aggregating function");
	expect_err("BEGIN { trace(strlen(1)); }", "D_PROTO_ARG",
		   "line 1: strlen( ) argument #1 is incompatible with prototype:\n\tprototype: string\n\t argument: int");
	expect_err("BEGIN { trace(strlen(\"a\", \"b\")); }", "D_PROTO_LEN",
		   "line 1: strlen( ) prototype mismatch: 2 args passed, 1 expected");
	expect_err("BEGIN { x = 1 / 0; }", "D_DIV_ZERO", "line 1: expression contains division by zero");
	expect_err("BEGIN { trace(*1); }", "D_DEREF_NONPTR", "line 1: cannot dereference non-pointer type");
	expect_err("BEGIN { 1 = 2; }", "D_OP_LVAL", "line 1: operator = requires modifiable lvalue as an operand");
	expect_err("BEGIN { x = ~\"s\"; }", "D_OP_INT", "line 1: operator ~ requires an operand of integral type");
	expect_err("BEGIN { printf(\"%d %d\\n\", 1); }", "D_PRINTF_ARG_PROTO",
		   "line 1: printf( ) prototype mismatch: conversion #2 (%d) is missing a corresponding value argument");
	expect_err("BEGIN { @a = lquantize(1, 10, 0); }", "D_LQUANT_MISMATCH",
		   "line 1: lquantize( ) base (argument #1) must be less than limit (argument #2)");
	expect_err("BEGIN { trace(x.y); }", "D_IDENT_UNDEF", "line 1: failed to resolve x: Unknown variable name");
	expect_err("BEGIN { trace(0x1g); }", "D_INT_DIGIT", "line 1: constant 0x1g contains invalid digit g");
	expect_err("BEGIN { printa(@nope); }", "D_PRINTA_AGGBAD", "line 1: undefined aggregation: @nope");
	expect_err("#pragma D bogus\nBEGIN {}", "D_PRAGMA_INVAL", "line 1: invalid control directive: #pragma bogus");
	expect_err("BEGIN { trace($1); }", "D_MACRO_UNDEF", "line 1: macro argument $1 is not defined");
	expect_err("", "D_EMPTY", "line 1: empty D program translation unit");
	expect_err("BEGIN { x = 1; x = \"s\"; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"int\" = \"string\"");
	expect_err("syscall::read:entry { trace(args[5]); }", "D_ARGS_IDX",
		   "line 1: index 5 is out of range for syscall::read:entry args[ ]");

	printf("%d passed, %d failed\n", passes, failures);
	return failures != 0;
}
