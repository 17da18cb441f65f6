/*
 * compile_print.c: print()'s output for types and bytes a D program can
 * hardly produce (floats, function pointers, undefined structs, odd
 * chars, records shorter than their type).  Each case compiles a program
 * whose print() names the type, fills a record by hand, and compares what
 * dt_print_typed() prints with DTrace's text, byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_probes.h"
#include "ct_check.h"
#include "dt_impl.h"


static dtrace_hdl_t *dtp;

/* The type of the program's last print(). */
static const dt_ctype_t *
print_type(dt_cprog_t **pp, const char *src)
{
	dt_copts_t o;
	const dt_ctype_t *t = NULL;

	ct_opts(&o, 0);
	*pp = dt_compile_string(src, &o);
	CHECK(*pp != NULL && !(*pp)->err.failed, "<%s>: %s", src, *pp ? (*pp)->err.text : "NULL");
	if (*pp == NULL || (*pp)->err.failed)
		return NULL;
	for (size_t i = 0; i < (*pp)->nacts; i++) {
		if ((*pp)->acts[i].ptype != NULL)
			t = (*pp)->acts[i].ptype;
	}
	CHECK(t != NULL, "<%s>: no print type", src);
	return t;
}

/* What the last print() of src prints for `size' bytes of data (malloc'd), and its return value. */
static char *
print_text(const char *src, const void *data, size_t size, int *rv)
{
	dt_cprog_t *p;
	const dt_ctype_t *t = print_type(&p, src);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	*rv = -2;
	if (t != NULL) {
		fp = open_memstream(&buf, &len);
		*rv = dt_print_typed(dtp, fp, t, data, size);
		fclose(fp);
	}
	dt_cprog_free(p);
	return buf;
}

static void
expect_print(const char *src, const void *data, size_t size, int want_rv, const char *want)
{
	int rv;
	char *buf = print_text(src, data, size, &rv);

	CHECK(rv == want_rv, "<%s>: returned %d, expected %d", src, rv, want_rv);
	CHECK(buf != NULL && strcmp(buf, want) == 0, "<%s>:\n--- got\n%s\n--- expected\n%s\n---", src,
	      buf ? buf : "(nothing)", want);
	free(buf);
}

static void
test_floats(void)
{
	struct {
		float f;
		double d;
		long double ld;
	} v;
	memset(&v, 0, sizeof(v));
	v.f = 1.5f;
	v.d = -0.25;
	v.ld = 3.0L;
	expect_print("struct fl { float f; double d; long double ld; };"
		     "BEGIN { print(*(struct fl *)alloca(sizeof(struct fl))); }",
		     &v, sizeof(v), (int)sizeof(v),
		     "struct fl {\n"
		     "    float f = +1.5000000e+00\n"
		     "    double d = -2.5000000e-01\n"
		     "    long double ld = +3.0000000000000000E+00\n"
		     "}");
}

/* A function pointer prints as module`symbol when the address is a known symbol. */
static void
test_function_pointer(void)
{
	uint64_t fn[2] = {(uint64_t)(uintptr_t)&test_floats, 0x10};
	dt_syminfo_t si;
	char want[1024];

	/* the expected text depends on this binary's symbol table */
	if (dt_symtab_lookup(dtp, 0, fn[0], &si) == 0 && si.dts_hassym)
		snprintf(want, sizeof(want), "struct cb {\n    int (*)() fn = %s`%s\n    int *ip = 0x10\n}",
			 si.dts_object, si.dts_name);
	else
		snprintf(want, sizeof(want), "struct cb {\n    int (*)() fn = %#llx\n    int *ip = 0x10\n}",
			 (unsigned long long)fn[0]);
	expect_print("struct cb { int (*fn)(); int *ip; };"
		     "BEGIN { print(*(struct cb *)alloca(sizeof(struct cb))); }",
		     fn, sizeof(fn), (int)sizeof(fn), want);
}

static void
test_chars(void)
{
	char s[6] = {'a', '\t', 'b', 0, 0, 0};
	char t[6] = {'a', 'b', 'c', 'd', 'e', 'f'};
	expect_print("struct cs { char s[6]; };"
		     "BEGIN { print(*(struct cs *)alloca(sizeof(struct cs))); }",
		     s, sizeof(s), 6,
		     "struct cs {\n    char [6] s = [ 'a', '\\011', 'b', '\\0', '\\0', '\\0' ]\n}");
	/* no NUL within the array: not a string */
	expect_print("struct cs { char s[6]; };"
		     "BEGIN { print(*(struct cs *)alloca(sizeof(struct cs))); }",
		     t, sizeof(t), 6,
		     "struct cs {\n    char [6] s = [ 'a', 'b', 'c', 'd', 'e', 'f' ]\n}");
	/* a D string holding an unprintable character prints as chars */
	char str[256];
	int rv;
	memset(str, 0, sizeof(str));
	str[0] = 'x';
	str[1] = '\n';
	char *buf = print_text("BEGIN { print(\"x\"); }", str, sizeof(str), &rv);
	CHECK(rv == (int)sizeof(str) && buf != NULL &&
	      strncmp(buf, "string [ 'x', '\\012', '\\0', '\\0', ", 34) == 0 &&
	      strcmp(buf + strlen(buf) - 7, "'\\0' ]\n") == 0, "unprintable string: %s", buf);
	free(buf);
}

/* An undefined struct behind a pointer; records shorter than the type go to trace(). */
static void
test_forward_and_short(void)
{
	uint64_t z[2] = {0, 0};
	expect_print("struct undef; struct has { struct undef *u; };"
		     "BEGIN { print(*(struct has *)alloca(sizeof(struct has))); }",
		     z, 8, 8, "struct has {\n    struct undef *u = 0\n}");
	expect_print("BEGIN { print(1); }", z, 2, 0, "");
	expect_print("union un { int i; short s[2]; };"
		     "BEGIN { print(*(union un *)alloca(sizeof(union un))); }",
		     "\x01\x00\x02\x00", 4, 4,
		     "union un {\n    int i = 0x20001\n    short [2] s = [ 0x1, 0x2 ]\n}");
}

int
main(void)
{
	dtp = dt_handle_create(DTRACE_VERSION, 0);
	if (dtp == NULL) {
		fprintf(stderr, "no handle\n");
		return 1;
	}
	test_floats();
	test_function_pointer();
	test_chars();
	test_forward_and_short();
	dt_handle_destroy(dtp);
	printf("%d passed, %d failed\n", passes, failures);
	return failures != 0;
}
