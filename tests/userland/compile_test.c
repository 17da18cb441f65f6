/*
 * compile_test.c: the D compiler against a fixed probe list.
 *
 * Each case compiles a program and checks either the DOF produced (header,
 * ECBs, actions, disassembly) or the exact DTrace error message and tag.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_check.h"
#include "compile_probes.h"


/* As `dtrace -s' compiles: from a file, so errors carry line numbers. */
static dt_cprog_t *
compile_file(const char *src, uint32_t flags)
{
	return ct_compile_file(src, flags, "test.d");
}

/* A script (dtrace -s): the error with its line number. */
static void
expect_err(const char *src, const char *tag, const char *text)
{
	ct_check_err(compile_file(src, 0), src, tag, text);
}

/* A command-line program (dtrace -n): no line, the region instead. */
static void
expect_err_str(const char *src, uint32_t flags, const char *tag, const char *text)
{
	ct_check_err(ct_compile(src, flags), src, tag, text);
}

static void
test_first_program(void)
{
	dt_cprog_t *p = ct_compile("BEGIN { trace(1); printf(\"%d\\n\", 2); @[1] = count(); exit(0); }", 0);
	CHECK(p && !p->err.failed, "first program: %s", p->err.text);
	const dof_hdr_t *h = p->dof;
	CHECK(p->dof_size >= sizeof(*h) && memcmp(h->dofh_ident, DOF_MAG_STRING, 4) == 0, "DOF magic");
	CHECK(h->dofh_loadsz == p->dof_size && h->dofh_filesz == p->dof_size, "DOF sizes");
	CHECK(p->necbs == 1 && p->ndescs == 1 && p->descs[0].matched == 1, "one ECB for BEGIN");
	/* trace, printf, agg id, agg key, count, exit */
	CHECK(p->nacts == 6, "six actions, got %zu", p->nacts);
	if (p->nacts == 6) {
		CHECK(p->acts[0].kind == DTRACEACT_DIFEXPR, "trace is DIFEXPR");
		CHECK(p->acts[1].kind == DTRACEACT_PRINTF && strcmp(p->acts[1].format, "%i\n") == 0,
		      "printf (%%d of a signed value reaches the consumer as %%i)");
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
	dt_cprog_t *p = ct_compile("BEGIN { x = 1 + 2; trace(x); }", 0);
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

/* Count ECBs with a predicate, and find the ECB's description text. */
static int
ecb_has_pred(const dt_cprog_t *p, size_t i)
{
	const dof_hdr_t *h = p->dof;
	const dof_sec_t *sec = (const dof_sec_t *)((const char *)p->dof + h->dofh_secoff);
	size_t n = 0;
	for (uint32_t s = 0; s < h->dofh_secnum; s++) {
		if (sec[s].dofs_type != DOF_SECT_ECBDESC)
			continue;
		if (n++ == i) {
			const dof_ecbdesc_t *e = (const void *)((const char *)p->dof + sec[s].dofs_offset);
			return e->dofe_pred != DOF_SECIDX_NONE;
		}
	}
	return -1;
}

static void
test_if_else(void)
{
	/* DTrace's sub-clauses: ERROR hook, reset, block, cond, then, cond, else, block */
	dt_cprog_t *p = ct_compile("BEGIN { x = 1; if (x > 0) { trace(1); } else { trace(2); } trace(3); }", 0);
	CHECK(p && !p->err.failed, "if/else: %s", p->err.text);
	CHECK(p->necbs == 8, "if/else makes 8 ECBs, got %zu", p->necbs);
	if (p->necbs == 8) {
		static const int pred[8] = {0, 0, 0, 1, 1, 1, 1, 1};
		CHECK(strcmp(p->descs[p->ecbs[0].desc].text, "dtrace:::ERROR") == 0, "first ECB is dtrace:::ERROR");
		for (size_t i = 1; i < 8; i++)
			CHECK(strcmp(p->descs[p->ecbs[i].desc].text, "BEGIN") == 0, "ECB %zu is on BEGIN", i);
		for (size_t i = 0; i < 8; i++)
			CHECK(ecb_has_pred(p, i) == pred[i], "ECB %zu predicate %d", i, ecb_has_pred(p, i));
	}
	dt_cprog_free(p);

	/* the ERROR clause is added once per program; a clause with no if is left alone */
	p = ct_compile("BEGIN { if (1) trace(1); } END { if (1) trace(2); } tick-1s { trace(3); }", 0);
	CHECK(p && !p->err.failed, "two ifs: %s", p->err.text);
	int nerr = 0;
	for (size_t i = 0; i < p->necbs; i++)
		nerr += strcmp(p->descs[p->ecbs[i].desc].text, "dtrace:::ERROR") == 0;
	CHECK(nerr == 1, "one dtrace:::ERROR clause, got %d", nerr);
	CHECK(p->necbs == 1 + 3 + 3 + 1, "ECBs: %zu", p->necbs);
	dt_cprog_free(p);

	/* conditions are typed like any expression */
	expect_err("BEGIN { @a = count(); if (@a) trace(1); }", "D_OP_SCALAR",
		   "line 1: operator && requires operands of scalar type");
	expect_err("BEGIN {\n\tif (x) trace(1);\n}", "D_IDENT_UNDEF",
		   "line 2: failed to resolve x: Unknown variable name");
}

/* print(): a DIFEXPR whose type the consumer gets as a dt_ctype_t (and the DOF as "D`N"). */
static void
test_print(void)
{
	dt_cprog_t *p = ct_compile("struct s { int a; char b[4]; unsigned c:3; enum e { X = 2 } d; };\n"
				"BEGIN { this->p = (struct s *)alloca(sizeof(struct s)); print(*this->p); print(1); }", 0);
	/* the assignment is an action too (a DIFEXPR without a type) */
	CHECK(p && !p->err.failed && p->nacts == 3, "print: %zu %s", p ? p->nacts : 0, p ? p->err.text : "");
	if (p != NULL && p->nacts == 3) {
		const dt_ctype_t *t = p->acts[1].ptype;
		CHECK(p->acts[0].ptype == NULL, "an assignment has no print type");
		CHECK(p->acts[1].kind == DTRACEACT_DIFEXPR && t != NULL, "print is DIFEXPR with a type");
		if (t != NULL) {
			CHECK(t->kind == DT_CTYPE_STRUCT && strcmp(t->name, "struct s") == 0 && t->size == 16,
			      "struct s: kind %d name %s size %llu", t->kind, t->name, (unsigned long long)t->size);
			CHECK(t->nmembers == 4, "4 members, got %d", t->nmembers);
			if (t->nmembers == 4) {
				CHECK(strcmp(t->members[0].name, "a") == 0 && t->members[0].off == 0 &&
				      t->members[0].type->kind == DT_CTYPE_INT && t->members[0].type->issigned, "member a");
				CHECK(t->members[1].off == 4 && t->members[1].type->kind == DT_CTYPE_ARRAY &&
				      t->members[1].type->nelems == 4 && t->members[1].type->ref->ischar &&
				      strcmp(t->members[1].type->name, "char [4]") == 0, "member b: %s",
				      t->members[1].type->name);
				CHECK(t->members[2].bits == 3 && t->members[2].off == 8, "member c bit-field");
				CHECK(t->members[3].type->kind == DT_CTYPE_ENUM && t->members[3].type->nenums == 1 &&
				      t->members[3].type->enums[0].value == 2, "member d enum");
			}
		}
		CHECK(p->acts[2].ptype != NULL && p->acts[2].ptype->kind == DT_CTYPE_INT &&
		      strcmp(p->acts[2].ptype->name, "int") == 0, "print(1) is an int");
		/* the type string rides in the DOF string table on dofa_arg, as DTrace's does */
		const dof_hdr_t *h = p->dof;
		const dof_sec_t *sec = (const dof_sec_t *)((const char *)p->dof + h->dofh_secoff);
		for (uint32_t i = 0; i < h->dofh_secnum; i++) {
			if (sec[i].dofs_type != DOF_SECT_ACTDESC)
				continue;
			const dof_actdesc_t *ad = (const void *)((const char *)p->dof + sec[i].dofs_offset);
			const char *str = (const char *)p->dof + sec[ad[1].dofa_strtab].dofs_offset;
			CHECK(ad[1].dofa_strtab != DOF_SECIDX_NONE && strcmp(str + ad[1].dofa_arg, "D`0") == 0,
			      "print type string");
		}
	}
	dt_cprog_free(p);
	expect_err("BEGIN { @a = count(); print(@a); }", "D_PRINT_AGG",
		   "line 1: print( ) may not be applied to an aggregation -- did you mean printa()?");
	expect_err("BEGIN { @a = count(); trace(@a); }", "D_TRACE_AGG",
		   "line 1: trace( ) may not be applied to an aggregation");
	expect_err("BEGIN { print(exit(0)); }", "D_PRINT_VOID", "line 1: print( ) may not be applied to a void expression");
}

/*
 * Strings in additive expressions are char pointers to DTrace's dt_cook_op2:
 * string + int, int + string and string - int are strings, string - string
 * (or - char *) is a ptrdiff_t; everything else is refused.
 */
static void
test_string_arithmetic(void)
{
	dt_cprog_t *p = ct_compile("BEGIN { x = \"a\" + 1; y = 1 + \"abc\"; z = \"a\" - 1; d = \"a\" - \"b\"; "
				"e = \"a\" - (char *)0; exit(0); }", 0);
	CHECK(p && !p->err.failed, "string arithmetic: %s", p ? p->err.text : "");
	dt_cprog_free(p);
	expect_err("BEGIN { x = 1 - \"a\"; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"int\" - \"string\"");
	expect_err("BEGIN { x = \"a\" + \"b\"; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"string\" + \"string\"");
	expect_err("BEGIN { x = \"a\" - (int *)0; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"string\" - \"int *\"");
	/* void pointers take no arithmetic */
	expect_err("BEGIN { x = \"a\" - (void *)0; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"string\" - \"void *\"");
	expect_err("BEGIN { x = \"a\" * 2; }", "D_OP_ARITH",
		   "line 1: operator * requires operands of arithmetic type");
	expect_err("BEGIN { x = \"a\" == (int *)0; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"string\" == \"int *\"");
}

/* Translators: declarations, xlate<T>/xlate<T *>, and DTrace's D_XLATE_* errors. */
#define XL_DECLS                                                                                   \
	"struct in_s { int a; int b; };\n"                                                        \
	"typedef struct out_s { int sum; string label; } out_t;\n"                                \
	"translator out_t < struct in_s *p > {\n"                                                  \
	"\tsum = p->a + p->b;\n"                                                                   \
	"\tlabel = \"x\";\n"                                                                       \
	"};\n"

static void
test_translators(void)
{
	ct_expect_ok(XL_DECLS "BEGIN { this->p = (struct in_s *)alloca(8); trace(xlate<out_t *>(this->p)->sum); "
			   "trace(xlate<out_t>(this->p).label); print(*xlate<out_t *>(this->p)); "
			   "print(xlate<out_t>(this->p)); x = xlate<out_t>(this->p); trace(x.sum); }");
	/* the third pass: any input that could be passed as the declared type */
	ct_expect_ok(XL_DECLS "BEGIN { trace(xlate<out_t *>((void *)0)->sum); trace(xlate<struct out_s *>(0)->sum); }");
	expect_err(XL_DECLS "BEGIN { trace(xlate<out_t *>(1)->sum); }", "D_XLATE_NONE",
		   "line 7: cannot translate from \"int\" to \"out_t *\"");
	expect_err(XL_DECLS "BEGIN { trace(xlate<struct in_s>((struct in_s *)0)); }", "D_XLATE_NONE",
		   "line 7: cannot translate from \"struct in_s *\" to \"struct in_s\"");
	expect_err(XL_DECLS "BEGIN { trace(xlate<out_t *>((struct in_s *)0)->nope); }", "D_XLATE_NOCONV",
		   "line 7: translator does not define conversion for member: nope");
	expect_err(XL_DECLS "BEGIN { trace(xlate<out_t>((struct in_s *)0)->sum); }", "D_OP_PTR",
		   "line 7: operator -> must be applied to a pointer");
	expect_err(XL_DECLS "BEGIN { trace(xlate<out_t *>((struct in_s *)0).sum); }", "D_OP_SOU",
		   "line 7: operator . cannot be applied to type \"out_t *\"; must be applied to a struct or union");
	expect_err(XL_DECLS "BEGIN { trace(xlate<out_t *>((struct in_s *)0)); }", "D_TRACE_DYN",
		   "line 7: trace( ) may not be applied to a translated pointer");
	expect_err(XL_DECLS "BEGIN { print(xlate<out_t *>((struct in_s *)0)); }", "D_PRINT_DYN",
		   "line 7: print( ) may not be applied to a translated pointer");
	expect_err(XL_DECLS "BEGIN { xlate<out_t *>((struct in_s *)0)->sum = 1; }", "D_OP_WRITE",
		   "line 7: operator = can only be applied to a writable variable");
	expect_err(XL_DECLS "translator out_t < struct in_s *q > {\n\tsum = 1;\n};", "D_XLATE_REDECL",
		   "line 9: translator from struct in_s * to out_t has already been declared");
	expect_err(XL_DECLS "translator out_t < int q > {\n\tzz = 1;\n};", "D_XLATE_MEMB",
		   "line 9: translator member zz is not a member of out_t");
	expect_err(XL_DECLS "translator out_t < int q > {\n\tsum = \"s\";\n};", "D_XLATE_INCOMPAT",
		   "line 9: translator member sum definition uses incompatible types: \"int\" = \"string\"");
	expect_err("translator int < int q > { };", "D_XLATE_SOU",
		   "line 1: translator output type must be a struct or union");
	expect_err("struct undef;\ntranslator struct undef < int q > { };", "D_XLATE_SOU",
		   "line 2: incomplete struct/union/enum struct undef");
	/* the parameter is only in scope inside the translator */
	expect_err(XL_DECLS "BEGIN { trace(p); }", "D_IDENT_UNDEF",
		   "line 7: failed to resolve p: Unknown variable name");
}

/* Errors as DTrace words them for scripts and for -n programs. */
static void
test_error_forms(void)
{
	/* -n: no line numbers; the region being checked is named instead */
	expect_err_str("BEGIN { x = y; }", DT_C_PSPEC, "D_IDENT_UNDEF",
		       "in action list: failed to resolve y: Unknown variable name");
	expect_err_str("BEGIN /y/ { trace(1); }", DT_C_PSPEC, "D_IDENT_UNDEF",
		       "in predicate: failed to resolve y: Unknown variable name");
	expect_err_str("BEGIN { x = ; }", DT_C_PSPEC, "D_SYNTAX", "syntax error near \";\"");
	expect_err_str("BEGIN { trace(1)", DT_C_PSPEC, "D_SYNTAX", "syntax error near end of input");
	expect_err_str("nosuch:::x { trace(1); }", DT_C_PSPEC, "D_PDESC_ZERO",
		       "probe description nosuch:::x does not match any probes");
	expect_err_str("BEGIN { printf(\"%d\"); }", DT_C_PSPEC, "D_PRINTF_ARG_PROTO",
		       "printf( ) prototype mismatch: conversion #1 (%d) is missing a corresponding value argument");
	expect_err_str("BEGIN /1/", DT_C_PSPEC, "D_SYNTAX",
		       "expected actions { } following probe description and predicate");
	expect_err_str("BEGIN { x = y; }", DT_C_PSPEC | DT_C_ETAGS, "D_IDENT_UNDEF",
		       "[D_IDENT_UNDEF] in action list: failed to resolve y: Unknown variable name");
	/* a bare description is a clause on the command line, an error in a script */
	dt_cprog_t *p = ct_compile("BEGIN", DT_C_PSPEC);
	CHECK(p && !p->err.failed && p->necbs == 1 && p->nacts == 0, "dtrace -n BEGIN: %s", p->err.text);
	dt_cprog_free(p);
	expect_err("BEGIN\n", "D_SYNTAX", "line 1: expected predicate and/or actions following probe description");
	expect_err("BEGIN\n/1/\n", "D_SYNTAX",
		   "line 2: expected actions { } following probe description and predicate");
	expect_err("BEGIN {\n\tx = ;\n}", "D_SYNTAX", "line 2: syntax error near \";\"");
	expect_err("BEGIN\n{\n\ttrace(1)\n", "D_SYNTAX", "line 4: syntax error near end of input");

	/* DTrace checks only the last macro argument for use */
	dt_copts_t o;
	char *argv2[] = {"x.d", "1", "2"};
	ct_opts(&o, 0);
	o.argc = 3;
	o.argv = argv2;
	p = dt_compile_string("BEGIN { trace($2); }", &o);
	CHECK(p && !p->err.failed, "$2 alone with two arguments: %s", p->err.text);
	dt_cprog_free(p);
	p = dt_compile_string("BEGIN { trace($1); }", &o);
	ct_check_err(p, "$1 of two", "D_MACRO_UNUSED", "extraneous argument '2' ($2 is not referenced)");
	o.flags = DT_C_ARGREF;
	p = dt_compile_string("BEGIN { trace($1); }", &o);
	CHECK(p && !p->err.failed, "argref: %s", p->err.text);
	dt_cprog_free(p);
}

/*
 * Operands as DTrace's dt_cook_op1/dt_cook_op2 check them: a compound
 * assignment reads its left side, so it may not create a variable (++ and
 * -- may, as an int64_t).  Actions and aggregations are refused by their
 * types, except by the comma operator.
 */
static void
test_operand_rules(void)
{
	expect_err("BEGIN { x += 1; }", "D_VAR_UNDEF", "line 1: x has not yet been declared or assigned");
	expect_err("BEGIN { self->x %= 3; }", "D_VAR_UNDEF", "line 1: self->x has not yet been declared or assigned");
	expect_err("BEGIN { this->x ^= 3; }", "D_VAR_UNDEF", "line 1: this->x has not yet been declared or assigned");
	expect_err("BEGIN { a[1] >>= 3; }", "D_VAR_UNDEF", "line 1: a has not yet been declared or assigned");
	expect_err("BEGIN { x /= 0; }", "D_DIV_ZERO", "line 1: expression contains division by zero");
	ct_expect_ok("BEGIN { x++; x += 1; self->y--; self->y -= 1; this->z++; this->z *= 2; a[1]++; a[1] &= 1; }");
	ct_expect_ok("int x; self int y; BEGIN { x += 1; self->y -= 1; }");
	/* D_OP_ACT is the comma's; elsewhere an action's or aggregation's type decides */
	expect_err("BEGIN { x = printf(\"a\") + 1; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"void\" + \"int\"");
	expect_err("BEGIN { @c = count(); x = @c; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"scalar\" = \"aggregation\"");
	expect_err("BEGIN { @c = count(); a[1] = @c; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"associative array\" = \"aggregation\"");
	expect_err("BEGIN { x = 1; x = count(); }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"int\" = \"void\"");
	expect_err("BEGIN { x = (trace(1), 2); }", "D_OP_ACT", "line 1: operator , operands cannot be actions");
	/* a string dereferences as an array of char */
	ct_expect_ok("BEGIN { s = \"abc\"; trace(*s); trace(s[1]); trace(*\"abc\"); trace(\"abc\"[2]); }");
	expect_err("BEGIN { *\"abc\" = 1; }", "D_OP_WRITE", "line 1: operator = can only be applied to a writable variable");
}

/* A numeric macro argument is typed as the same constant in the program text, then negated. */
static void
expect_macro_const(const char *arg, const char *hex, const char *type)
{
	dt_copts_t o;
	char *argv[] = {"x.d", (char *)arg};
	char *buf = NULL, want[64];
	size_t len = 0;
	ct_opts(&o, 0);
	o.argc = 2;
	o.argv = argv;
	o.flags = DT_C_DIFV;
	dt_cprog_t *p = dt_compile_string("BEGIN { trace($1); print($1); }", &o);
	CHECK(p && !p->err.failed, "$1 = %s: %s", arg, p ? p->err.text : "NULL");
	if (p != NULL && !p->err.failed) {
		FILE *f = open_memstream(&buf, &len);
		dt_cprog_disassemble(p, f);
		fclose(f);
		snprintf(want, sizeof(want), "! %s\n", hex);
		CHECK(strstr(buf, want) != NULL, "$1 = %s: expected %s in\n%s", arg, hex, buf);
		const dt_ctype_t *t = NULL;
		for (size_t i = 0; i < p->nacts && t == NULL; i++)
			t = p->acts[i].ptype;
		CHECK(t != NULL && t->name != NULL && strcmp(t->name, type) == 0, "$1 = %s: print type %s, expected %s",
		      arg, t != NULL && t->name != NULL ? t->name : "(none)", type);
		free(buf);
	}
	dt_cprog_free(p);
}

static void
test_macro_arg_constants(void)
{
	expect_macro_const("0xffffffff", "0xffffffff", "unsigned int");
	expect_macro_const("1ULL", "0x1", "unsigned long long");
	expect_macro_const("-1", "0xffffffffffffffff", "int");
	expect_macro_const("-3000000000", "0xffffffff4d2fa200", "long");
	expect_macro_const("-0xffffffff", "0x1", "unsigned int");
}

/* Clauses are typed once per probe description, in its probe's context. */
static void
test_clause_contexts(void)
{
	/* read:entry has three arguments, read:return two */
	expect_err("syscall::read:entry, syscall::read:return { trace(args[2]); }", "D_ARGS_IDX",
		   "line 1: index 2 is out of range for syscall::read:return args[ ]");
	dt_cprog_t *p = ct_compile("syscall::read:entry, syscall::read:return { trace(args[1]); }", 0);
	CHECK(p && !p->err.failed && p->necbs == 2, "two contexts: %s", p->err.text);
	dt_cprog_free(p);

	/* the actions are typed before the predicate, as in DTrace */
	p = ct_compile("BEGIN /x == 0/ { exit(x++); }", 0);
	CHECK(p && !p->err.failed, "predicate after actions: %s", p->err.text);
	dt_cprog_free(p);
	p = ct_compile("BEGIN /(y = 1) != 0/ { trace(y); }", 0);
	CHECK(p && !p->err.failed, "predicate first on retry: %s", p->err.text);
	dt_cprog_free(p);

	/* clause-local variables are the program's: one type across clauses */
	expect_err("BEGIN { this->x = 1; }\nEND { this->x = \"s\"; }", "D_OP_INCOMPAT",
		   "line 2: operands have incompatible types: \"int\" = \"string\"");
	/* inlines are copied at each use (a shared node would link two argument lists) */
	p = ct_compile("inline int K = 7; BEGIN { printf(\"%d %d\\n\", K, K); trace(K + K); }", 0);
	CHECK(p && !p->err.failed && p->nacts == 3, "inline used twice: %s", p->err.text);
	dt_cprog_free(p);
}

/*
 * DTrace's stack, _symaddr and _usymaddr are typedefs of void: no operator
 * takes them as numbers, but their values are not void, so where the
 * types allow them (a cast to void, a comparison of two of them) the
 * action is refused only by code generation.
 */
static void
test_value_typedefs(void)
{
	expect_err("BEGIN { x = -stack(); }", "D_OP_ARITH", "line 1: operator - requires an operand of arithmetic type");
	expect_err("BEGIN { x = ~sym(arg0); }", "D_OP_INT", "line 1: operator ~ requires an operand of integral type");
	expect_err("BEGIN { x = !ustack(); }", "D_OP_SCALAR", "line 1: operator ! requires an operand of scalar type");
	expect_err("BEGIN { x = uaddr(arg0) | 1; }", "D_OP_INT",
		   "line 1: operator | requires operands of integral type");
	expect_err("BEGIN { x = jstack() * 2; }", "D_OP_ARITH",
		   "line 1: operator * requires operands of arithmetic type");
	expect_err("BEGIN { x = 1; x += stack(); }", "D_OP_VFPTR",
		   "line 1: operator += requires left-hand scalar operand of known size");
	expect_err("BEGIN { x = stringof(stack()); }", "D_STRINGOF_TYPE",
		   "line 1: cannot apply stringof to a value of type stack");
	expect_err("BEGIN { x = sizeof (mod(arg0)); }", "D_SIZEOF_TYPE",
		   "line 1: cannot apply sizeof to an operand of unknown size");
	expect_err("BEGIN { x = stack() ? 1 : 0; }", "D_OP_SCALAR", "line 1: operator ?: expression must be of scalar type");
	expect_err("BEGIN { x = pid ? stack() : stack(); }", "D_OP_ACT",
		   "line 1: action cannot be used in a conditional context");
	expect_err("BEGIN { (void)stack(); }", "D_CG_EXPR",
		   "line 1: tracing function stack( ) may not be called from a D expression (D program context required)");
	expect_err("BEGIN { x = usym(arg0) != usym(arg1); }", "D_CG_EXPR",
		   "line 1: tracing function usym( ) may not be called from a D expression (D program context required)");
	expect_err("BEGIN { x = (_usymaddr)arg0; }", "D_CAST_INVAL",
		   "line 1: invalid cast expression: \"int64_t\" to \"_usymaddr\"");
	/* as actions they record; as keys they are typed, so one aggregation keeps one kind */
	ct_expect_ok("BEGIN { stack(); sym(0); usym(0); @s[stack()] = count(); @s[ustack()] = count(); "
		  "@k[sym(0)] = count(); @k[func(1)] = count(); @u[uaddr(0)] = count(); @u[ufunc(1)] = count(); }");
	expect_err("BEGIN { @k[sym(0)] = count(); @k[stack()] = count(); }", "D_PROTO_ARG",
		   "line 1: @k[ ] key #1 is incompatible with prototype:\n\tprototype: _symaddr\n\t      key: stack");
}

int
main(void)
{
	test_first_program();
	test_disassembly();
	test_if_else();
	test_print();
	test_string_arithmetic();
	test_translators();
	test_error_forms();
	test_clause_contexts();
	test_value_typedefs();
	test_operand_rules();
	test_macro_arg_constants();

	ct_expect_ok("syscall::read:entry /pid == 1/ { self->ts = timestamp; }\n"
		  "syscall::read:return /self->ts/ { @a[execname] = quantize(timestamp - self->ts); self->ts = 0; }");
	ct_expect_ok("BEGIN { a[\"x\", 1] = 2; trace(a[\"x\", 1]); }");
	ct_expect_ok("BEGIN { this->x = 3; trace(this->x * 2 + (this->x > 2 ? 1 : 0)); }");
	ct_expect_ok("BEGIN { trace(strlen(\"abc\")); trace(strjoin(\"a\", probename)); }");
	ct_expect_ok("syscall::read:entry { trace(args[2]); trace(stringof(args[1])); }");
	ct_expect_ok("BEGIN { @c = lquantize(1, 0, 100, 10); @d = llquantize(5, 10, 0, 6, 20); printa(@c); }");
	ct_expect_ok("struct s { int a; char b[4]; int c:3; }; BEGIN { trace(sizeof(struct s)); trace(offsetof(struct s, b)); }");
	ct_expect_ok("typedef unsigned int u; inline int K = 7; BEGIN { x = (u)K; trace(x); }");
	ct_expect_ok("enum e { A, B = 5, C }; BEGIN { trace(C); }");
	ct_expect_ok("#pragma D option quiet\nBEGIN { exit(0); }");
	ct_expect_ok("tick-1s, BEGIN { trace(1) }");

	expect_err("BEGIN { x = \"a\" + \"b\"; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"string\" + \"string\"");
	expect_err("BEGIN { trace(offsetof(struct s, c)); }", "D_OFFSETOF_TYPE",
		   "line 1: offsetof operand must be a struct or union type");
	expect_err("BEGIN\n{\n\ttrace(y);\n}", "D_IDENT_UNDEF", "line 3: failed to resolve y: Unknown variable name");
	expect_err("BEGIN { trace(1) ", "D_SYNTAX", "line 1: syntax error near end of input");
	expect_err("nosuch:::probe { trace(1); }", "D_PDESC_ZERO",
		   "line 1: probe description nosuch:::probe does not match any probes");
	expect_err("BEGIN { @a = count(); @a = sum(1); }", "D_AGG_REDEF",
		   "line 1: aggregation redefined: @a\n\t current: @a = sum( )\n\tprevious: @a = count( ) : line 1");
	expect_err("BEGIN { @a = 1; }", "D_AGG_FUNC", "line 1: @a must be assigned the result of an aggregating function");
	expect_err("BEGIN { trace(strlen(1)); }", "D_PROTO_ARG",
		   "line 1: strlen( ) argument #1 is incompatible with prototype:\n\tprototype: const char *\n\t argument: int");
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
	/* DTrace's lexer ends a constant where its pattern ends: 0x1g is 0x1 then g,
	 * 1lu is 1l then u (suffixes go u before l); only an octal digit past 7
	 * reaches D_INT_DIGIT */
	expect_err("BEGIN { trace(0x1g); }", "D_SYNTAX", "line 1: syntax error near \"g\"");
	expect_err("BEGIN { trace(1uz); }", "D_SYNTAX", "line 1: syntax error near \"z\"");
	expect_err("BEGIN { trace(1lu); }", "D_SYNTAX", "line 1: syntax error near \"u\"");
	expect_err("BEGIN { trace(12abc); }", "D_SYNTAX", "line 1: syntax error near \"abc\"");
	expect_err("BEGIN { trace(0129); }", "D_INT_DIGIT", "line 1: constant 0129 contains invalid digit 9");
	/* @a alone must name an aggregation already made; @a[...] makes one, printa() then refuses it */
	expect_err("BEGIN { printa(@nope); }", "D_IDENT_UNDEF", "line 1: failed to resolve @nope: Unknown variable name");
	expect_err("BEGIN { printa(@nope[1]); }", "D_PRINTA_AGGBAD", "line 1: undefined aggregation: @nope");
	expect_err("#pragma D bogus\nBEGIN {}", "D_PRAGMA_INVAL", "line 1: invalid D pragma: bogus");
	expect_err("BEGIN { trace($1); }", "D_MACRO_UNDEF", "line 1: macro argument $1 is not defined");
	expect_err("", "D_EMPTY", "line 1: empty D program translation unit");
	expect_err_str("", 0, "D_EMPTY", "empty D program translation unit");
	expect_err("BEGIN { x = 1; x = \"s\"; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"int\" = \"string\"");
	expect_err("syscall::read:entry { trace(args[5]); }", "D_ARGS_IDX",
		   "line 1: index 5 is out of range for syscall::read:entry args[ ]");

	printf("%d passed, %d failed\n", passes, failures);
	return failures != 0;
}
