/*
 * compile_decl.c: declarations as DTrace's dt_decl.c and dt_node_decl()
 * take them, where an e2e test would say less: large enums (the compile
 * stays linear), the last enumerator's value, and the exact errors.
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

int
main(void)
{
	test_large_enum();

	printf("%d passed, %d failed\n", passes, failures);
	return failures != 0;
}
