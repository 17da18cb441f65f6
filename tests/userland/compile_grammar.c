/*
 * compile_grammar.c: how the D grammar reads the constructs that could be
 * read two ways (dt_grammar.y has one shift/reduce conflict, the dangling
 * else, and no other).  Each case checks the reading by its effect: a folded
 * constant in the disassembly, the type print() records, the ECBs made, or
 * DTrace's exact error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_check.h"
#include "compile_probes.h"


/* As `dtrace -s' compiles: from a file, so errors carry line numbers. */
static dt_cprog_t *
compile(const char *src, uint32_t flags)
{
	return ct_compile_file(src, flags, "test.d");
}

static bool
ok(const dt_cprog_t *p, const char *src)
{
	CHECK(p != NULL && !p->err.failed && p->dof != NULL, "expected success for <%s>: %s", src,
	      p != NULL ? p->err.text : "NULL");
	return p != NULL && !p->err.failed;
}

static void
expect_ok(const char *src)
{
	dt_cprog_t *p = compile(src, 0);
	ok(p, src);
	dt_cprog_free(p);
}

static void
expect_err(const char *src, const char *tag, const char *text)
{
	ct_check_err(compile(src, 0), src, tag, text);
}

/* The -S disassembly of a program that must compile (malloc'd; "" on failure). */
static char *
dis(const char *src)
{
	dt_cprog_t *p = compile(src, 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!ok(p, src)) {
		dt_cprog_free(p);
		return strdup("");
	}
	f = open_memstream(&buf, &len);
	dt_cprog_disassemble(p, f);
	fclose(f);
	dt_cprog_free(p);
	return buf;
}

/* The program's (first) DIFO is `setx <value>; ret': a constant folded at compile time. */
static void
expect_const(const char *src, const char *hex)
{
	char *d = dis(src);
	char want[64];
	snprintf(want, sizeof(want), "! %s\n01: 23000001    ret  %%r1\n", hex);
	CHECK(strstr(d, want) != NULL && strstr(d, "00: 25000001    setx DT_INTEGER[0], %r1") != NULL,
	      "<%s>: expected the constant %s alone:\n%s", src, hex, d);
	free(d);
}

/* Two programs compile to the same DIFOs (addresses aside). */
static void
strip_addrs(char *s)
{
	char *p;
	while ((p = strstr(s, "DIFO 0x")) != NULL) {
		char *q = p + 7;
		while ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f'))
			*q++ = 'X';
		s = q;
	}
}

static void
expect_same(const char *a, const char *b, bool same)
{
	char *da = dis(a), *db = dis(b);
	strip_addrs(da);
	strip_addrs(db);
	CHECK((strcmp(da, db) == 0) == same, "<%s> and <%s> should compile %s:\n%s\n---\n%s", a, b,
	      same ? "alike" : "differently", da, db);
	free(da);
	free(db);
}

/* The type print() records for the program's first print() action. */
static const dt_ctype_t *
print_type(dt_cprog_t *p)
{
	for (size_t i = 0; p != NULL && i < p->nacts; i++)
		if (p->acts[i].ptype != NULL)
			return p->acts[i].ptype;
	return NULL;
}

static void
expect_print_type(const char *src, int kind, uint64_t size, const char *name)
{
	dt_cprog_t *p = compile(src, 0);
	if (ok(p, src)) {
		const dt_ctype_t *t = print_type(p);
		CHECK(t != NULL && t->kind == kind && t->size == size &&
			      (name == NULL || (t->name != NULL && strcmp(t->name, name) == 0)),
		      "<%s>: print type kind %d size %llu name %s, expected %d %llu %s", src,
		      t ? t->kind : -1, t ? (unsigned long long)t->size : 0ULL,
		      t && t->name ? t->name : "(none)", kind, (unsigned long long)size, name ? name : "-");
	}
	dt_cprog_free(p);
}

/* (type) e against (expression): a cast only when the parenthesized words are a type. */
static void
test_casts(void)
{
	expect_const("BEGIN { trace((unsigned char)300); }", "0x2c");
	/* DTrace's dt_cast narrows a constant by zero-filling: (char)-1 is 0xff, not -1 */
	expect_const("BEGIN { trace((char)-1 + 0); }", "0xff");
	expect_const("BEGIN { trace((long long)(char)-1); }", "0xffffffffffffffff");
	expect_const("BEGIN { trace((short)(char)-1); }", "0xffff");
	expect_const("BEGIN { trace((unsigned int)-1); }", "0xffffffffffffffff");
	expect_const("BEGIN { trace((long)(unsigned char)-1); }", "0xff");
	/* and operators fold on all 64 bits, >> logically (dt_node_op1, dt_node_op2) */
	expect_const("BEGIN { trace(-16 >> 2); }", "0x3ffffffffffffffc");
	expect_const("BEGIN { trace(~0U); }", "0xffffffffffffffff");
	expect_const("BEGIN { trace(-1U); }", "0xffffffff");
	expect_const("BEGIN { trace(0x7fffffff + 1); }", "0x80000000");
	expect_const("BEGIN { trace((int)(long)(char)259); }", "0x3");
	expect_print_type("BEGIN { print((char)1); }", DT_CTYPE_INT, 1, "char");
	expect_print_type("typedef unsigned char uc_t; BEGIN { print((uc_t)300); }", DT_CTYPE_INT, 1, NULL);
	/* qualifiers before a typedef name: still the typedef (DTrace accepts these) */
	expect_print_type("typedef short s_t; BEGIN { print((const s_t)1); }", DT_CTYPE_INT, 2, NULL);
	expect_print_type("typedef short s_t; BEGIN { print((volatile s_t)1); }", DT_CTYPE_INT, 2, NULL);
	/* a variable in parentheses is an operand: (x) - 1 subtracts */
	expect_print_type("BEGIN { x = 3; print((x) - 1); }", DT_CTYPE_INT, 4, "int");
	/* a typedef name in parentheses is a cast: (t_t) - 1 is the cast of -1 */
	expect_print_type("typedef long t_t; BEGIN { print((t_t) - 1); }", DT_CTYPE_INT, 8, NULL);
	/* once assigned, a type name is a variable for the rest of the program (DTrace's lexer) */
	expect_print_type("typedef long t_t; BEGIN { t_t = 5; print((t_t) - 1); }", DT_CTYPE_INT, 4, "int");
	expect_print_type("typedef long t_t; BEGIN { t_t[1] = 5; } END { print((t_t[1]) - 1); }", DT_CTYPE_INT, 4, "int");
	/* abstract declarators */
	expect_print_type("BEGIN { print((char *)0); }", DT_CTYPE_PTR, 8, NULL);
	expect_print_type("BEGIN { print((int (*)(int))0); }", DT_CTYPE_PTR, 8, NULL);
	expect_err("BEGIN { trace((int foo)1); }", "D_SYNTAX", "line 1: syntax error near \"foo\"");
}

/* A typedef name where a member or a declarator's name is expected. */
static void
test_typedef_names_as_names(void)
{
	static const char *decl = "typedef int foo_t;\n"
				  "struct s { foo_t foo_t; int x; struct s *next; } v;\n";
	char src[512];

	/* after the member's type, a typedef name is the member's name */
	snprintf(src, sizeof(src), "%sBEGIN { v.foo_t = 1; v.x = 2; trace(v.foo_t + v.x); }", decl);
	expect_ok(src);
	snprintf(src, sizeof(src), "%sBEGIN { trace(offsetof(struct s, x) - offsetof(struct s, foo_t)); }", decl);
	expect_const(src, "0x4");
	snprintf(src, sizeof(src), "%sBEGIN { this->p = (struct s *)alloca(sizeof (struct s)); trace(this->p->next->foo_t); }", decl);
	expect_ok(src);
	snprintf(src, sizeof(src), "%sBEGIN { print(v); }", decl);
	{
		dt_cprog_t *p = compile(src, 0);
		if (ok(p, src)) {
			const dt_ctype_t *t = print_type(p);
			CHECK(t != NULL && t->kind == DT_CTYPE_STRUCT && t->nmembers == 3 &&
				      strcmp(t->members[0].name, "foo_t") == 0 &&
				      strcmp(t->members[1].name, "x") == 0 && t->members[1].off == 4,
			      "struct s members foo_t, x, next");
		}
		dt_cprog_free(p);
	}
	/* a qualifier then a typedef name: the member's type; the name follows */
	expect_ok("typedef int foo_t; struct s { const foo_t x; } v; BEGIN { trace(v.x); }");
	/* bit-fields, named and unnamed: a byte each (libctf's layout), no tail padding */
	expect_const("struct bf { int a : 3, : 2, b : 4; }; BEGIN { trace(sizeof (struct bf)); }", "0x3");

	/*
	 * after a declaration's type, the lexer gives a typedef name as the
	 * declared name (DTrace's id_or_type()), which DTrace then refuses as a
	 * typedef's name; a second name after it is a syntax error.  After a
	 * struct tag, which waits for the next token, the typedef name is read as
	 * a type and taken for the name (dt_decl_spec()): a second name is then
	 * an old-style declaration.  A pointer on the declaration's stack hides
	 * the type from the lexer, as in DTrace.
	 */
	expect_err("typedef int foo_t;\nint foo_t;\n", "D_DECL_IDRED", "line 2: typedef identifier redeclared: foo_t");
	expect_err("typedef int foo_t;\nint *foo_t;\n", "D_DECL_IDRED", "line 2: typedef identifier redeclared: foo_t");
	expect_err("typedef int foo_t;\nfoo_t foo_t;\n", "D_DECL_IDRED", "line 2: typedef identifier redeclared: foo_t");
	expect_err("typedef int foo_t;\nint *(*foo_t);\n", "D_SYNTAX", "line 2: syntax error near \"foo_t\"");
	expect_err("typedef int foo_t;\nint foo_t x;\n", "D_SYNTAX", "line 2: syntax error near \"x\"");
	expect_err("struct s { int a; };\ntypedef int foo_t;\nstruct s foo_t x;\n", "D_DECL_IDENT",
		   "line 3: old-style declaration or incorrect type specified");
	expect_err("typedef int foo_t;\nstruct { int a; } foo_t;\n", "D_DECL_COMBO", "line 2: invalid type combination");
	expect_err("typedef int foo_t;\ntypedef int foo_t;\n", "D_DECL_IDRED", "line 2: typedef redeclared: foo_t");
	expect_err("typedef int foo_t;\nstruct s { int a; };\ntypedef struct s foo_t;\n", "D_DECL_IDRED",
		   "line 3: identifier redeclared: foo_t");
	/* in a member or a type name after a struct tag, the name is taken and the declarator missing */
	expect_err("typedef int foo_t;\nstruct s { int a; };\nstruct t { struct s foo_t; };\n", "D_SYNTAX",
		   "line 3: syntax error near \";\"");
	expect_const("typedef int foo_t; struct s { int a; }; BEGIN { trace(sizeof (struct s foo_t)); }", "0x4");
	/* brackets, parentheses and bodies are scopes of their own: there it is a type again */
	expect_err("typedef int foo_t;\nint foo_t[foo_t];\n", "D_DECL_IDRED", "line 2: typedef identifier redeclared: foo_t");
	expect_ok("typedef int foo_t; int a[int, foo_t]; int (*f)(int, foo_t); struct s { int foo_t; } v; BEGIN { }");
	expect_const("typedef int foo_t; inline int k = sizeof (foo_t); BEGIN { trace(k); }", "0x4");
	/* an enumerator is a name only where the lexer's peek makes it one (before `=') */
	expect_err("typedef int foo_t;\nenum e { foo_t };\n", "D_SYNTAX", "line 2: syntax error near \"foo_t\"");
	expect_const("typedef int foo_t; enum e { foo_t = 5 }; BEGIN { trace(foo_t); }", "0x5");
	expect_err("typedef int foo_t;\nlong foo_t x;\n", "D_DECL_LONGINT",
		   "line 2: invalid type declaration: long and long long may only be used with integer or "
		   "floating-point type");
	/* before `[' (as before `=', `++', `--') the lexer takes it for a name, as DTrace does */
	expect_err("typedef int foo_t;\nint foo_t[2];\n", "D_DECL_IDRED", "line 2: typedef identifier redeclared: foo_t");
	expect_ok("typedef int foo_t; struct s { int foo_t[2]; } v; BEGIN { v.foo_t[0] = 1; trace(v.foo_t[0]); }");
	/* an inline may bear a typedef's name (before `=' the lexer takes it for a name) */
	expect_const("typedef int foo_t; inline int foo_t = 3; BEGIN { trace(foo_t + 1); }", "0x4");
}

/* Declarations against clauses and statements. */
static void
test_declarations(void)
{
	/* at the outer level a type name starts a declaration */
	expect_ok("typedef int foo_t; foo_t x; BEGIN { x = 1; trace(x); }");
	expect_ok("typedef int foo_t; foo_t *p, **pp; BEGIN { trace(p); trace(pp); }");
	expect_ok("self int x; this int y; BEGIN { self->x = 1; this->y = 2; trace(self->x + this->y); }");
	expect_ok("int self z; BEGIN { self->z = 2; trace(self->z); }");
	expect_err("int static z;\n", "D_DECL_BADCLASS", "line 1: specified storage class not appropriate in D");
	expect_ok("int a[int, string]; BEGIN { a[1, \"x\"] = 2; trace(a[1, \"x\"]); }");
	expect_ok("long long x; unsigned long long y; short int s; signed char c; BEGIN { trace(x + y + s + c); }");
	expect_const("int a[3 * 2]; BEGIN { trace(sizeof (a)); }", "0x18");
	expect_const("int a[sizeof (int)]; BEGIN { trace(sizeof (a)); }", "0x10");
	expect_const("enum e { A, B = 3, C }; BEGIN { trace(C); }", "0x4");
	/* no comma after the last enumerator: DTrace's enumerator_list has none (C99 allows one) */
	expect_err("enum e { A, B, };\n", "D_SYNTAX", "line 1: syntax error near \"}\"");
	expect_const("enum { E1 = 1 << 2, E2 = sizeof (int) }; BEGIN { trace(E1 + E2); }", "0x8");
	/* a tuple key's specifiers cannot begin with self or this (DTrace's rule) */
	expect_err("int a[self int];\n", "D_SYNTAX", "line 1: syntax error near \"int\"");
	expect_err("int a[this, int];\n", "D_SYNTAX", "line 1: syntax error near \",\"");
	expect_err("int int x;\n", "D_DECL_COMBO", "line 1: invalid type combination");
	expect_err("self self int x;\n", "D_DECL_CLASS", "line 1: only one storage class allowed in a declaration");

	/* inside a clause, a type name followed by = [ ++ -- is a new variable (DTrace's peek) */
	expect_ok("typedef int foo_t; BEGIN { foo_t = 1; }");
	expect_ok("typedef int foo_t; BEGIN { foo_t[1] = 1; }");
	expect_ok("typedef int foo_t; BEGIN { foo_t++; }");
	expect_err("typedef int foo_t;\nBEGIN { trace(foo_t); }", "D_SYNTAX", "line 2: syntax error near \"foo_t\"");
}

/* Function and pointer declarators: where a typedef name is a parameter's type. */
static void
test_function_declarators(void)
{
	expect_ok("int (*f1)(int, char *); int (*f2)(void); int (*f3)(int, ...); int (*f4)(...); BEGIN { }");
	expect_ok("int (*f5)(int (*)(int), char); int *(*f6)(int); BEGIN { }");
	expect_ok("typedef int foo_t; int (*g1)(foo_t); int (*g2)(const foo_t); BEGIN { }");
	/* after a parameter's type, even inside parentheses, a typedef name is the parameter's name */
	expect_ok("typedef int foo_t; int (*g3)(int (foo_t)); int (*g4)(int ((foo_t))); BEGIN { }");
	/* elsewhere in a parameter it names the parameter */
	expect_ok("typedef int foo_t; int (*g5)(int *foo_t); int (*g6)(int (*foo_t)(int)); BEGIN { }");
	expect_ok("int (*g7)(int (x)); int (*g8)(register int x); BEGIN { }");
	/* after the parameter's type, a typedef name is the parameter's name (DTrace's dt_decl_spec) */
	expect_ok("typedef int foo_t; int (*g9)(int foo_t); BEGIN { }");
	/* array and pointer abstract declarators */
	expect_const("BEGIN { trace(sizeof (int [3])); }", "0xc");
	expect_const("BEGIN { trace(sizeof (int *[3])); }", "0x18");
	/*
	 * DTrace's grammar pushes an array declarator on top of the pointers
	 * read before it, parentheses or not (dt_decl_array): int (*)[3] is
	 * int *[3] to it, not C's pointer to an array.
	 */
	expect_const("BEGIN { trace(sizeof (int (*)[3])); }", "0x18");
	expect_const("BEGIN { trace(sizeof (int (*)(int))); }", "0x8");
	expect_const("int (*ap)[4]; int *ar[4]; BEGIN { trace(sizeof (ap) + sizeof (ar)); }", "0x40");
}

/* sizeof (type) against sizeof expression, offsetof, xlate. */
static void
test_operators(void)
{
	expect_const("BEGIN { trace(sizeof (int)); }", "0x4");
	expect_const("BEGIN { trace(sizeof (char *)); }", "0x8");
	expect_const("BEGIN { trace(sizeof 1); }", "0x4");
	expect_const("BEGIN { trace(sizeof (1L)); }", "0x8");
	/* sizeof binds tighter than + and *: (sizeof 1) + 2, (sizeof (int)) * 2 */
	expect_const("BEGIN { trace(sizeof 1 + 2); }", "0x6");
	expect_const("BEGIN { trace(sizeof (int) * 2); }", "0x8");
	expect_const("BEGIN { x = 1; trace(sizeof x); }", "0x4");
	expect_const("BEGIN { trace(sizeof -1); }", "0x4");
	/* sizeof (type) is complete: a cast cannot follow it */
	expect_err("BEGIN { trace(sizeof (char) 1); }", "D_SYNTAX", "line 1: syntax error near \"1\"");

	expect_const("struct st { int a; char b[4]; long c; }; BEGIN { trace(offsetof(struct st, c)); }", "0x8");
	expect_const("typedef struct st { int a; char b[4]; } st_t; BEGIN { trace(offsetof(st_t, b)); }", "0x4");

	static const char *xl = "struct in { int a; }; struct out { int b; };\n"
				"translator struct out < struct in *p > { b = p->a + 1; };\n";
	char src[512];
	snprintf(src, sizeof(src), "%sBEGIN { this->p = (struct in *)alloca(4); trace(xlate<struct out>(this->p).b); }", xl);
	expect_ok(src);
	snprintf(src, sizeof(src), "%sBEGIN { this->p = (struct in *)alloca(4); trace(xlate<struct out *>(this->p)->b); }", xl);
	expect_ok(src);
	/* without xlate, < and > are relational: (1 < 2) > (3) */
	expect_const("BEGIN { trace(1 < 2 > (3)); }", "0x0");
}

/* Comma expressions, ?: nesting, assignment and the dangling else. */
static void
test_expressions(void)
{
	/* a parenthesized comma expression is one argument */
	expect_err("BEGIN { printf(\"%d %d\\n\", (1, 2)); }", "D_PRINTF_ARG_PROTO",
		   "line 1: printf( ) prototype mismatch: conversion #2 (%d) is missing a corresponding value argument");
	expect_ok("BEGIN { printf(\"%d %d\\n\", 1, 2); }");
	expect_same("BEGIN { x = 1, y = 2; }", "BEGIN { (x = 1), (y = 2); }", true);
	expect_same("BEGIN { x = (1, 2); }", "BEGIN { x = 1, 2; }", false);

	/* ?: is right-associative, and its middle operand is a full expression */
	expect_const("BEGIN { trace(1 ? 2 : 0 ? 3 : 4); }", "0x2");
	expect_const("BEGIN { trace(0 ? 1 : 0 ? 2 : 3); }", "0x3");
	expect_const("BEGIN { trace(1 ? 0 ? 5 : 6 : 7); }", "0x6");
	expect_const("BEGIN { trace(0 ? 1, 2 : 3); }", "0x3");
	expect_same("BEGIN { trace(1 ? 1, 2 : 3); }", "BEGIN { trace(1 ? (1, 2) : 3); }", true);
	expect_same("BEGIN { a = 1; b = a ? a = 2 : 3; }", "BEGIN { a = 1; b = (a ? (a = 2) : 3); }", true);
	/* assignment is right-associative */
	expect_same("BEGIN { a = b = c = 1; }", "BEGIN { a = (b = (c = 1)); }", true);
	/* precedence of D's ^^ between && and || */
	expect_const("BEGIN { trace(1 || 1 ^^ 1 && 1); }", "0x1");
	expect_const("BEGIN { trace(1 ^^ 1 && 0); }", "0x1");
	expect_const("BEGIN { trace(4 / 2 / 2); }", "0x1");

	/* the dangling else belongs to the nearest if */
	expect_same("BEGIN { a = 1; if (a) if (a > 1) trace(1); else trace(2); }",
		    "BEGIN { a = 1; if (a) { if (a > 1) trace(1); else trace(2); } }", true);
	expect_same("BEGIN { a = 1; if (a) if (a > 1) trace(1); else trace(2); }",
		    "BEGIN { a = 1; if (a) { if (a > 1) trace(1); } else trace(2); }", false);
}

static size_t
nmatched_descs(const dt_cprog_t *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->ndescs; i++)
		n += p->descs[i].matched > 0;
	return n;
}

/* Probe descriptions: globs, probe ids, lists, macros; the predicate's closing `/'. */
static void
test_probe_descriptions(void)
{
	dt_cprog_t *p;
	const char *src;

	src = "sys*::re?d:entry, syscall::read:* { trace(1); }";
	p = compile(src, 0);
	if (ok(p, src))
		CHECK(p->necbs == 2 && p->ndescs == 2 && p->descs[0].matched == 1 && p->descs[1].matched == 2,
		      "globs: %zu ECBs, %zu descriptions", p->necbs, p->ndescs);
	dt_cprog_free(p);

	/* a number is a probe id (the test's probe table matches on names only) */
	src = "4 { trace(1); }";
	p = compile(src, 0);
	if (ok(p, src))
		CHECK(p->necbs == 1 && p->ndescs == 1 && p->descs[0].pd.dtpd_id == 4 &&
			      strcmp(p->descs[0].text, "4") == 0,
		      "probe id 4: %zu ECBs, id %u, text %s", p->necbs, (unsigned)p->descs[0].pd.dtpd_id,
		      p->descs[0].text);
	dt_cprog_free(p);

	src = "BEGIN,END{}";
	p = compile(src, 0);
	if (ok(p, src))
		CHECK(p->necbs == 2 && nmatched_descs(p) == 2, "BEGIN,END: %zu ECBs", p->necbs);
	dt_cprog_free(p);

	/* profile-97 is one description, not profile minus 97 */
	expect_err("profile-97 { }", "D_PDESC_ZERO", "line 1: probe description :::profile-97 does not match any probes");
	/* $target in a description is expanded (0 when there is no target) */
	expect_err("pid$target:::entry { }", "D_PDESC_ZERO",
		   "line 1: probe description pid0:::entry does not match any probes");
	/* the predicate ends at a `/' followed by `{', `;', `/' or the end; else it divides */
	expect_ok("BEGIN /4 / 2 == 2/ { trace(1); }");
	expect_ok("BEGIN / 1 / { }");
	expect_ok("BEGIN /(1)/ { }");
	expect_err("BEGIN { }; END { }", "D_SYNTAX", "line 1: syntax error near \";\"");
	expect_ok("BEGIN { ;;; trace(1);; }");
	expect_ok("BEGIN { trace(1); trace(2) }");
}

/* Limits that keep the compiler's recursion off the end of the C stack. */
static void
test_depth_limits(void)
{
	size_t n = 1000, len = 64 + 12000;
	char *src = malloc(len);
	char *q;

	/* trace() over 999 additions is 1000 deep and compiles; 1001 is refused (the tree is
	   deep, the parser's stack is not: 1+1+...+1 is reduced as it goes) */
	q = src + sprintf(src, "BEGIN { trace(");
	for (size_t i = 0; i < n - 1; i++)
		q += sprintf(q, "1+");
	sprintf(q, "1); }");
	expect_ok(src);
	q = src + sprintf(src, "BEGIN { trace(");
	for (size_t i = 0; i < n + 1; i++)
		q += sprintf(q, "1+");
	sprintf(q, "1); }");
	expect_err(src, "D_SYNTAX", "line 1: expression is nested too deeply (more than 1000 operators)");
	q = src + sprintf(src, "BEGIN { a[0] = 1; trace(a");
	for (size_t i = 0; i < n + 1; i++)
		q += sprintf(q, "[0]");
	sprintf(q, "); }");
	expect_err(src, "D_SYNTAX", "line 1: expression is nested too deeply (more than 1000 operators)");
	/* parentheses nest in the parser's stack, which has its own end */
	q = src + sprintf(src, "BEGIN { trace(");
	for (size_t i = 0; i < 11000; i++)
		*q++ = '(';
	sprintf(q, "1");
	expect_err(src, "D_SYNTAX", "line 1: program is nested too deeply near \"(\"");
	free(src);
}

int
main(void)
{
	test_casts();
	test_typedef_names_as_names();
	test_declarations();
	test_function_declarators();
	test_operators();
	test_expressions();
	test_probe_descriptions();
	test_depth_limits();

	printf("%d passed, %d failed\n", passes, failures);
	return failures != 0;
}
