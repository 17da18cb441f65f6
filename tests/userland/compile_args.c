/*
 * compile_args.c: args[] as DTrace's dt_idcook_args types it, over the
 * typed, translated, mapped and unresolvable probe arguments and the
 * provider stability of compile_probes.h: which probe stands for a
 * description (D_ARGS_MULTI), out-of-range indices (D_ARGS_IDX),
 * unresolvable types (D_ARGS_TYPE), missing translators (D_ARGS_XLATOR),
 * and the types args[N] reads as.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_check.h"
#include "compile_probes.h"

/* As `dtrace -s' compiles: from a file, so errors carry line numbers. */
static void
expect_err(const char *src, const char *tag, const char *text)
{
	ct_check_err(ct_compile_file(src, 0, "test.d"), src, tag, text);
}

/* The DIF listing of a program compiled with -S. */
static char *
dif_listing(const char *src)
{
	char *buf = NULL;
	size_t len = 0;
	dt_cprog_t *p = ct_compile(src, DT_C_DIFV);
	FILE *f;

	CHECK(p != NULL && !p->err.failed, "<%s>: %s", src, p ? p->err.text : "NULL");
	if (p == NULL || p->err.failed || (f = open_memstream(&buf, &len)) == NULL) {
		dt_cprog_free(p);
		return NULL;
	}
	dt_cprog_disassemble(p, f);
	fclose(f);
	dt_cprog_free(p);
	/* a DIFO's address differs from run to run */
	for (char *d = buf; (d = strstr(d, "DIFO 0x")) != NULL;)
		for (d += 7; (*d >= '0' && *d <= '9') || (*d >= 'a' && *d <= 'f'); d++)
			*d = '@';
	return buf;
}

#define CT_IO_TYPES                                                                                \
	"struct buf { int b_flags; size_t b_bcount; int b_dev; };\n"                               \
	"typedef struct bufinfo { int b_flags; size_t b_bcount; } bufinfo_t;\n"                    \
	"typedef struct devinfo { int dev_major; } devinfo_t;\n"
#define CT_IO_XLATORS                                                                              \
	"translator bufinfo_t < struct buf *B > { b_flags = B->b_flags; b_bcount = B->b_bcount; "  \
	"};\n"                                                                                     \
	"translator devinfo_t < struct buf *B > { dev_major = B->b_dev >> 8; };\n"

/*
 * args[] as DTrace's dt_idcook_args types it: from the probe standing for
 * the description (none when it matches an unstable set of probes), each
 * argument its translated type, reached from the native one directly or
 * through a translator.
 */
static void
test_args_typing(void)
{
	dt_copts_t o;
	dt_cprog_t *p;

	/* several probes that need not share a signature */
	expect_err("syscall::read:\n{\n\ttrace(args[0]);\n}", "D_ARGS_MULTI",
	           "line 3: args[ ] may not be referenced because probe description syscall::read: "
	           "matches an unstable set of probes");
	expect_err("dtrace:::\n{\n\ttrace(args[9]);\n}", "D_ARGS_MULTI",
	           "line 3: args[ ] may not be referenced because probe description dtrace::: "
	           "matches an unstable set of probes");
	expect_err("io::: { trace(args[0]); }", "D_ARGS_MULTI",
	           "line 1: args[ ] may not be referenced because probe description io::: "
	           "matches an unstable set of probes");
	expect_err("io:::st* { trace(args[0]); }", "D_ARGS_MULTI",
	           "line 1: args[ ] may not be referenced because probe description io:::st* "
	           "matches an unstable set of probes");
	ct_expect_ok("syscall::read: { trace(arg0); }");
	/*
	 * A provider whose names are at least Evolving promises one signature
	 * per name: DTrace then types args[] from the first probe matched,
	 * without comparing the others.
	 */
	expect_err("test:::differ { x = args[0]; x = \"s\"; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"int\" = \"string\"");
	expect_err("test:modb::differ { x = args[0]; x = 1; }", "D_OP_INCOMPAT",
		   "line 1: operands have incompatible types: \"char *\" = \"int\"");
	/* a description matching nothing (-Z) has no probe either */
	ct_opts(&o, DT_C_ZDEFS);
	o.filename = "test.d";
	FILE *f = fmemopen((void *)"nosuch:::none { trace(args[0]); }", 33, "r");
	p = f != NULL ? dt_compile_file(f, &o) : NULL;
	if (f != NULL)
		fclose(f);
	ct_check_err(p, "-Z nosuch:::none", "D_ARGS_MULTI",
	          "line 1: args[ ] may not be referenced because probe description nosuch:::none "
	          "matches an unstable set of probes");

	/* out of range, after the context's own checks */
	expect_err("dtrace:::ERROR { trace(args[6]); }", "D_ARGS_IDX",
	           "line 1: index 6 is out of range for dtrace:::ERROR args[ ]");
	expect_err("profile:::tick-1s { trace(args[0]); }", "D_ARGS_IDX",
	           "line 1: index 0 is out of range for profile:::tick-1s args[ ]");
	expect_err("BEGIN { trace(args[-1]); }", "D_ARGS_IDX",
	           "line 1: index -1 is out of range for :::BEGIN args[ ]");
	/* a description by probe id is named by its id */
	expect_err("3 { trace(args[6]); }", "D_ARGS_IDX",
	           "line 1: index 6 is out of range for 3 args[ ]");

	/* native and translated types D cannot resolve: the translated one is checked first */
	expect_err("test:::native-unknown { trace(args[0]); }", "D_ARGS_TYPE",
	           "line 1: failed to resolve translated type for args[0]");
	expect_err("test:::xlate-unknown { trace(args[0]); }", "D_ARGS_TYPE",
	           "line 1: failed to resolve translated type for args[0]");
	expect_err("io:::start { trace(args[0]); }", "D_ARGS_TYPE",
	           "line 1: failed to resolve translated type for args[0]");
	expect_err(
	    "typedef struct bufinfo { int b_flags; } bufinfo_t;\nio:::start { trace(args[0]); }",
	    "D_ARGS_TYPE", "line 2: failed to resolve native type for args[0]");
	/* io:::start matches two probes of one signature: typed, and a translator is needed */
	expect_err(
	    CT_IO_TYPES "io:::start { trace(args[0]->b_flags); }", "D_ARGS_XLATOR",
	    "line 4: translator for args[0] from struct buf * to bufinfo_t * is not defined");
	/* args[1] maps to native argument 0 */
	expect_err(
	    CT_IO_TYPES "translator bufinfo_t < struct buf *B > { b_flags = B->b_flags; };\n"
	                "io:::start { trace(args[1]->dev_major); }",
	    "D_ARGS_XLATOR",
	    "line 5: translator for args[1] from struct buf * to devinfo_t * is not defined");
	ct_expect_ok(CT_IO_TYPES CT_IO_XLATORS
	          "io:::start { trace(args[0]->b_bcount); trace(args[1]->dev_major); }");
	ct_expect_ok(CT_IO_TYPES "io:::done { trace(args[0]->b_bcount); }");
	expect_err(CT_IO_TYPES CT_IO_XLATORS "io:::start { trace(args[0]->b_dev); }",
	           "D_XLATE_NOCONV",
	           "line 6: translator does not define conversion for member: b_dev");

	/* a translated argument is the translator applied to the native value */
	char *a = dif_listing(CT_IO_TYPES CT_IO_XLATORS "io:::start { trace(args[0]->b_bcount); }");
	char *b = dif_listing(CT_IO_TYPES CT_IO_XLATORS
	                      "io:::done { trace(xlate<bufinfo_t *>(args[0])->b_bcount); }");
	CHECK(a != NULL && b != NULL && strcmp(a, b) == 0, "args[0]->b_bcount as xlate:\n%s---\n%s",
	      a ? a : "", b ? b : "");
	free(a);
	free(b);

	/* untranslated, the same name again, or a compatible type: the translated type, no
	 * translator */
	expect_err("syscall::read:entry { x = args[1]; x = 1; }", "D_OP_INCOMPAT",
	           "line 1: operands have incompatible types: \"char *\" = \"int\"");
	expect_err("test:::xlate-same { x = args[0]; x = \"s\"; }", "D_OP_INCOMPAT",
	           "line 1: operands have incompatible types: \"unsigned long\" = \"string\"");
	expect_err("test:::xlate-compat { x = args[0]; x = \"s\"; }", "D_OP_INCOMPAT",
	           "line 1: operands have incompatible types: \"int32_t\" = \"string\"");
	expect_err("syscall::read:return { x = args[1]; x = \"s\"; }", "D_OP_INCOMPAT",
	           "line 1: operands have incompatible types: \"ssize_t\" = \"string\"");
	/* ERROR's arguments are untyped, as all of the dtrace provider's */
	expect_err("dtrace:::ERROR { trace(args[0]); }", "D_ARGS_IDX",
	           "line 1: index 0 is out of range for dtrace:::ERROR args[ ]");
}

static bool
attr_is(dtrace_attribute_t a, int name, int data, int cls)
{
	return a.dtat_name == name && a.dtat_data == data && a.dtat_class == cls;
}

/*
 * The stability of descriptions and statements (dtrace -v): a description
 * has the least attributes of its provider's parts it names, args[] the
 * provider's argument attributes, translated or not; -x amin refuses
 * args[] by the array's name first, as DTrace's dt_xcook_ident() does (the
 * pragma keeps io's argument data Evolving, so that io:::start still stands
 * for probes of one signature).
 */
static void
test_args_stability(void)
{
	dt_cprog_t *p;

	p = ct_compile(CT_IO_TYPES CT_IO_XLATORS "io:::start { trace(args[0]->b_bcount); }", 0);
	CHECK(p != NULL && !p->err.failed && p->necbs == 1, "io:::start: %s",
	      p ? p->err.text : "NULL");
	if (p != NULL && p->necbs == 1) {
		CHECK(attr_is(p->ecbs[0].descattr, DTRACE_STABILITY_EVOLVING,
		              DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON),
		      "io:::start description attributes");
		CHECK(attr_is(p->ecbs[0].stmtattr, DTRACE_STABILITY_EVOLVING,
		              DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON),
		      "io:::start statement attributes");
	}
	dt_cprog_free(p);
	/* syscall's function names and arguments are Private/Private/Unknown */
	p = ct_compile("syscall::read:entry { trace(args[1]); }", 0);
	CHECK(p != NULL && !p->err.failed && p->necbs == 1, "syscall: %s",
	      p ? p->err.text : "NULL");
	if (p != NULL && p->necbs == 1) {
		CHECK(attr_is(p->ecbs[0].descattr, DTRACE_STABILITY_PRIVATE,
		              DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN),
		      "syscall::read:entry description attributes");
		CHECK(attr_is(p->ecbs[0].stmtattr, DTRACE_STABILITY_PRIVATE,
		              DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN),
		      "syscall::read:entry statement attributes");
	}
	dt_cprog_free(p);
	expect_err(
	    "#pragma D option amin=Evolving/Evolving/Common\n"
	    "#pragma D attributes Evolving/Evolving/ISA provider io args\n" CT_IO_TYPES
	        CT_IO_XLATORS "io:::start { trace(args[0]->b_bcount); }",
	    "D_ATTR_MIN",
	    "line 8: attributes for associative array args (Evolving/Evolving/ISA) are less than "
	    "predefined minimum");
}

/*
 * dtrace -lv's argument types (dt_args_names): each description's type by
 * D's name for it, as DTrace's print_probe_info() prints ctf_type_name() of
 * what dt_probe_discover() resolved: the native type unless another
 * translated type is named, that one otherwise; "" (printed "(unknown)")
 * when it does not resolve; a userland type with "userland " first; an
 * unknown tag a forward declaration.  The libraries' types are known.
 */
static void
expect_argnames(const char *lib, const dtrace_argdesc_t *ads, int n, const char *const *want)
{
	char names[10][DTRACE_ARGTYPELEN];
	dt_clib_t l = {"/lib/test.d", lib, strlen(lib)};
	dt_copts_t o;
	dt_cprog_t *p;

	ct_opts(&o, DT_C_EMPTY);
	o.libs = &l;
	o.nlibs = 1;
	o.argtypes = ads;
	o.nargtypes = n;
	o.argnames = names;
	memset(names, 'x', sizeof(names));
	p = dt_compile_string("", &o);
	CHECK(p != NULL, "argnames: no program");
	dt_cprog_free(p);
	for (int i = 0; i < n; i++)
		CHECK(strcmp(names[i], want[i]) == 0, "args[%d] (%s / %s): <%s>, expected <%s>", i,
		      ads[i].dtargd_native, ads[i].dtargd_xlate, names[i], want[i]);
}

static void
test_lv_argnames(void)
{
	static const dtrace_argdesc_t ads[] = {
	    {.dtargd_native = "int"},
	    {.dtargd_native = "long unsigned int"},
	    {.dtargd_native = "char *", .dtargd_xlate = "char *"},
	    {.dtargd_native = "struct buf *", .dtargd_xlate = "bufinfo_t *"},
	    {.dtargd_native = "int", .dtargd_xlate = "nosuch_t"},
	    {.dtargd_native = "nosuch_t"},
	    {.dtargd_native = "nosuch_t", .dtargd_xlate = "size_t"},
	    {.dtargd_native = "userland char *"},
	    {.dtargd_native = "struct nosuch *"},
	};
	static const char *const want[] = {
	    "int", "unsigned long", "char *", "bufinfo_t *", "", "", "size_t", "userland char *",
	    "struct nosuch *",
	};

	expect_argnames(CT_IO_TYPES, ads, 9, want);
}

int
main(void)
{
	test_args_typing();
	test_args_stability();
	test_lv_argnames();
	printf("%d passed, %d failed\n", passes, failures);
	return failures != 0;
}
