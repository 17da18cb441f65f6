/*
 * compile_decl.c: declarations as DTrace's dt_decl.c and dt_node_decl()
 * take them, where an e2e test would say less: large enums, thousands of
 * typedefs and structs and long declarator lists (the compile stays
 * linear), long chains of inlines and translators (bounded), the values
 * and the exact errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_probes.h"
#include "ct_check.h"

/* As `dtrace -s' compiles: from a file, so errors carry line numbers. */
static dt_cprog_t *
compile(const char *src)
{
	return ct_compile_file(src, 0, "test.d");
}

static bool
ok(const dt_cprog_t *p, const char *src)
{
	CHECK(p != NULL && !p->err.failed && p->dof != NULL, "expected success for <%.200s>: %s",
	      src, p != NULL ? p->err.text : "NULL");
	return p != NULL && !p->err.failed;
}

static void
expect_err(const char *src, const char *tag, const char *text)
{
	dt_cprog_t *p = compile(src);
	CHECK(p != NULL && p->err.failed, "expected failure for <%.200s>", src);
	if (p != NULL && p->err.failed) {
		CHECK(strcmp(dt_errtag_name(p->err.tag), tag) == 0,
		      "<%.200s>: tag %s, expected %s (%s)", src, dt_errtag_name(p->err.tag), tag,
		      p->err.text);
		CHECK(strcmp(p->err.text, text) == 0, "<%.200s>:\n  got      '%s'\n  expected '%s'",
		      src, p->err.text, text);
	}
	dt_cprog_free(p);
}

/* The program's first DIFO is `setx <hex>; ret': the constant folded at compile time. */
static void
expect_const(const char *src, const char *hex)
{
	dt_cprog_t *p = compile(src);
	char *buf = NULL, want[64];
	size_t len = 0;
	FILE *f;

	if (!ok(p, src)) {
		dt_cprog_free(p);
		return;
	}
	f = open_memstream(&buf, &len);
	dt_cprog_disassemble(p, f);
	fclose(f);
	snprintf(want, sizeof(want), "! %s\n01: 23000001    ret  %%r1\n", hex);
	CHECK(buf != NULL && strstr(buf, want) != NULL,
	      "<%.200s>: expected the constant %s alone:\n%s", src, hex, buf != NULL ? buf : "");
	free(buf);
	dt_cprog_free(p);
}

/* "enum big { E0, E1, ..., E<n-1><extra> };" followed by `tail' (malloc'd). */
static char *
big_enum(int n, const char *extra, const char *tail)
{
	size_t cap = (size_t)n * 12 + strlen(extra) + strlen(tail) + 64, len = 0;
	char *src = malloc(cap);

	if (src == NULL)
		return NULL;
	len += (size_t)snprintf(src + len, cap - len, "enum big {");
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(src + len, cap - len, "%s E%d", i == 0 ? "" : ",", i);
	snprintf(src + len, cap - len, "%s };\n%s", extra, tail);
	return src;
}

/*
 * An enum of 20,000 enumerators: each name is checked against the enum's
 * other enumerators and every identifier, by hash, so this takes a few
 * milliseconds (a list walk per enumerator took seconds).
 */
static void
test_large_enum(void)
{
	char *src = big_enum(20000, "", "BEGIN { trace(E19999); }");

	if (src != NULL)
		expect_const(src, "0x4e1f");
	free(src);
	/* a name used twice in one enum: libctf's words, as DTrace reports them */
	src = big_enum(20000, ", E17", "BEGIN { trace(E0); }");
	if (src != NULL)
		expect_err(
		    src, "D_UNKNOWN",
		    "line 1: failed to define enumerator 'E17': Duplicate member name definition");
	free(src);
	/* in another enum, it is another identifier of the same name */
	src = big_enum(20000, "", "enum other { X, E19999 };");
	if (src != NULL)
		expect_err(src, "D_DECL_IDRED", "line 2: identifier redeclared: E19999");
	free(src);
	expect_const("enum e { A = 5, B, C = A + 10, D }; BEGIN { trace(D); }", "0x10");
}

/*
 * "inline int a0 = <first>;\n" then n - 1 lines "inline int a<k> = <step>;\n",
 * each %1$d in step standing for k - 1, then `tail' (malloc'd).
 */
static char *
inline_chain(int n, const char *first, const char *step, const char *tail)
{
	size_t cap = (size_t)n * (strlen(step) + 64) + strlen(first) + strlen(tail) + 64, len = 0;
	char *src = malloc(cap);

	if (src == NULL)
		return NULL;
	len += (size_t)snprintf(src + len, cap - len, "inline int a0 = %s;\n", first);
	for (int k = 1; k < n; k++) {
		len += (size_t)snprintf(src + len, cap - len, "inline int a%d = ", k);
		len += (size_t)snprintf(src + len, cap - len, step, k - 1);
		len += (size_t)snprintf(src + len, cap - len, ";\n");
	}
	snprintf(src + len, cap - len, "%s", tail);
	return src;
}

/*
 * Chains of inlines.  Each use of an inline copies its expansion, so a
 * chain of constants (folded, one node each) is cheap at any length, while
 * expressions grow with the chain: an inline nested deeper than an
 * expression may be written, or a program whose uses of inlines copy more
 * than the compiler's limit of nodes, is refused instead of exhausting the
 * stack or memory (DTrace has no limit and overflows).
 */
static void
test_inline_chains(void)
{
	char *src = inline_chain(5000, "1", "a%1$d + 1", "BEGIN { trace(a4999); }");

	if (src != NULL)
		expect_const(src, "0x1388");
	free(src);
	/* a: 600 operators deep; b uses a 500 operators down: 1100 once a is expanded */
	{
		size_t cap = 20 * 1100 + 256, len = 0;
		char *p = malloc(cap);
		if (p != NULL) {
			len += (size_t)snprintf(p + len, cap - len, "inline int a = timestamp");
			for (int i = 0; i < 600; i++)
				len += (size_t)snprintf(p + len, cap - len, " + timestamp");
			len += (size_t)snprintf(p + len, cap - len, ";\ninline int b = a");
			for (int i = 0; i < 500; i++)
				len += (size_t)snprintf(p + len, cap - len, " + timestamp");
			snprintf(p + len, cap - len, ";\nBEGIN { trace(b); }");
			expect_err(p, "D_SYNTAX",
				   "line 2: inline b is nested too deeply once inlines are expanded (more than 1000 operators)");
		}
		free(p);
	}
	/* each step doubles: a17 would make the copies pass 2^20 nodes */
	src = inline_chain(40, "timestamp", "a%1$d * a%1$d", "BEGIN { trace(a39); }");
	if (src != NULL)
		expect_err(src, "D_SYNTAX",
			   "line 19: program is too large once inlines and translators are expanded (more than 1048576 nodes at a17)");
	free(src);
}

/* n lines "typedef long t<i>;" and "struct s<i> { char c[<i % 7 + 1>]; };", then tail (malloc'd) */
static char *
many_types(int n, const char *tail)
{
	size_t cap = (size_t)n * 64 + strlen(tail) + 1, len = 0;
	char *src = malloc(cap);

	if (src == NULL)
		return NULL;
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(src + len, cap - len, "typedef long t%d;\nstruct s%d { char c[%d]; };\n", i, i,
					i % 7 + 1);
	snprintf(src + len, cap - len, "%s", tail);
	return src;
}

/* Thousands of typedefs and struct tags: names are found by hash, not by walking every type. */
static void
test_many_types(void)
{
	char *src = many_types(10000, "BEGIN { trace(sizeof (t9999) + sizeof (struct s9999)); }");

	if (src != NULL)
		expect_const(src, "0xc");
	free(src);
	src = many_types(10000, "typedef int t17;");
	if (src != NULL)
		expect_err(src, "D_DECL_IDRED", "line 20001: typedef redeclared: t17");
	free(src);
	src = many_types(10000, "struct s17 { int x; };");
	if (src != NULL)
		expect_err(src, "D_DECL_TYPERED", "line 20001: type redeclared: struct s17");
	free(src);

	/* a struct of 20,000 members, then one defined twice (libctf's words, as DTrace reports them) */
	for (int dup = 0; dup < 2; dup++) {
		size_t cap = 20000 * 16 + 128, len = 0;
		char *p = malloc(cap);
		if (p == NULL)
			break;
		len += (size_t)snprintf(p + len, cap - len, "struct big {");
		for (int i = 0; i < 20000; i++)
			len += (size_t)snprintf(p + len, cap - len, " int m%d;", i);
		snprintf(p + len, cap - len, "%s };\nBEGIN { trace(offsetof (struct big, m19999)); }",
			 dup ? " char m123;" : "");
		if (dup)
			expect_err(p, "D_UNKNOWN", "line 1: failed to define member 'm123': Duplicate member name definition");
		else
			expect_const(p, "0x1387c");
		free(p);
	}
	/* the same members in one declarator list, after 50,000 variables declared in one list */
	{
		size_t cap = 50000 * 10 + 20000 * 9 + 128, len = 0;
		char *p = malloc(cap);
		if (p != NULL) {
			len += (size_t)snprintf(p + len, cap - len, "int v0");
			for (int i = 1; i < 50000; i++)
				len += (size_t)snprintf(p + len, cap - len, ", v%d", i);
			len += (size_t)snprintf(p + len, cap - len, ";\nstruct big { int m0");
			for (int i = 1; i < 20000; i++)
				len += (size_t)snprintf(p + len, cap - len, ", m%d", i);
			snprintf(p + len, cap - len, "; };\nBEGIN { trace(offsetof (struct big, m19999)); }");
			expect_const(p, "0x1387c");
			free(p);
		}
	}
}

/*
 * n struct types s<k> { int a; int b; } and translators to them from int:
 * s0 reads x, each later one defines a by step (a format of k - 1, the
 * translator before), then tail (malloc'd).
 */
static char *
xlate_chain(int n, const char *step, const char *tail)
{
	size_t cap = (size_t)n * (strlen(step) + 160) + strlen(tail) + 64, len = 0;
	char *src = malloc(cap);

	if (src == NULL)
		return NULL;
	for (int k = 0; k < n; k++) {
		len += (size_t)snprintf(src + len, cap - len, "struct s%d { int a; int b; };\n", k);
		len += (size_t)snprintf(src + len, cap - len, "translator struct s%d < int x > { a = ", k);
		if (k == 0)
			len += (size_t)snprintf(src + len, cap - len, "x");
		else
			len += (size_t)snprintf(src + len, cap - len, step, k - 1);
		len += (size_t)snprintf(src + len, cap - len, "; b = x; };\n");
	}
	snprintf(src + len, cap - len, "%s", tail);
	return src;
}

/*
 * A translator member is copied into each reference to it, so translators
 * defined from the one before grow like chains of inlines and are held to
 * the same limits: a member nested deeper than an expression may be
 * written, or copies of more nodes than the limit, is refused instead of
 * exhausting memory (doubling each step, 22 translators once took 13 GB; 18 take 1.3 GB
 * before these limits, which is why the test below stops there).
 */
static void
test_xlate_chains(void)
{
	/*
	 * a of s<k> is x + k.  Each step holds its input in a register while the
	 * member before is evaluated (as DTrace's code does), so a chain this
	 * deep cannot be generated; six steps can.
	 */
	char *src = xlate_chain(6, "xlate<struct s%d>(x).a + 1", "BEGIN { trace(xlate<struct s5>(7).a); }");
	dt_cprog_t *p;

	if (src != NULL) {
		p = compile(src);
		ok(p, src);
		dt_cprog_free(p);
	}
	free(src);
	/* 600 steps: s501's member a is 1,002 operators deep, refused before code generation */
	src = xlate_chain(600, "xlate<struct s%d>(x).a + 1", "BEGIN { trace(xlate<struct s599>(7).a); }");
	if (src != NULL)
		expect_err(src, "D_SYNTAX",
			   "line 1004: translator member a is nested too deeply once translators are expanded (more than 1000 operators)");
	free(src);
	/* each step uses the one before twice: the copies pass 2^20 nodes at s16 */
	src = xlate_chain(18, "xlate<struct s%1$d>(x).a * xlate<struct s%1$d>(x).a",
			  "BEGIN { trace(xlate<struct s17>(7).a); }");
	if (src != NULL)
		expect_err(src, "D_SYNTAX",
			   "line 34: program is too large once inlines and translators are expanded (more than 1048576 nodes at translator member a)");
	free(src);
}

int
main(void)
{
	test_large_enum();
	test_many_types();
	test_inline_chains();
	test_xlate_chains();

	printf("%d passed, %d failed\n", passes, failures);
	return failures != 0;
}
