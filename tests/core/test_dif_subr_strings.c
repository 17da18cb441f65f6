/*
 * DIF's string subroutines behave as in DTrace, edge cases included:
 * strlen, strjoin, substr, index/rindex/strstr, strchr/strrchr, strtok,
 * toupper/tolower, lltostr, strtoll, basename/dirname, cleanpath and json;
 * results live in scratch, are bounded by strsize, and running out of
 * scratch is a NOSCRATCH fault.
 */
#include "dif_call.h"

static void
test_strlen(void)
{
	CHECK_EQ(call(DIF_SUBR_STRLEN, S("hello")), 5);
	CHECK_EQ(call(DIF_SUBR_STRLEN, S("")), 0);
	e->state.dts_options[DTRACEOPT_STRSIZE] = 4;
	CHECK_EQ(call(DIF_SUBR_STRLEN, S("hello")), 4); /* bounded by strsize */
	e->state.dts_options[DTRACEOPT_STRSIZE] = 256;
	CHECK_NOFAULT(e);
}

static void
test_strjoin(void)
{
	CHECK_STREQ(STR(call(DIF_SUBR_STRJOIN, S("foo"), S("bar"))), "foobar");
	CHECK_STREQ(STR(call(DIF_SUBR_STRJOIN, S(""), S("bar"))), "bar");
	CHECK_STREQ(STR(call(DIF_SUBR_STRJOIN, S("foo"), S(""))), "foo");
	/* The scratch pointer moves by exactly the joined length plus NUL. */
	CHECK_EQ(e->m.dtms_scratch_ptr - e->m.dtms_scratch_base, 4);
	/* Longer than strsize: no room, as DTrace. */
	e->state.dts_options[DTRACEOPT_STRSIZE] = 6;
	CHECK_EQ(call(DIF_SUBR_STRJOIN, S("foo"), S("bar")), 0);
	CHECK_FAULT(e, DTRACE_CPUF_NOSCRATCH, 0, CALL_OFFSET(2));
	CHECK_STREQ(STR(call(DIF_SUBR_STRJOIN, S("fo"), S("bar"))), "fobar");
	e->state.dts_options[DTRACEOPT_STRSIZE] = 256;
}

static void
test_substr(void)
{
	CHECK_STREQ(STR(call(DIF_SUBR_SUBSTR, S("hello"), V(1))), "ello");
	CHECK_STREQ(STR(call(DIF_SUBR_SUBSTR, S("hello"), V(1), V(3))), "ell");
	CHECK_STREQ(STR(call(DIF_SUBR_SUBSTR, S("hello"), V(-3))), "llo");
	CHECK_STREQ(STR(call(DIF_SUBR_SUBSTR, S("hello"), V(-3), V(2))), "ll");
	CHECK_STREQ(STR(call(DIF_SUBR_SUBSTR, S("hello"), V(10))), "");
	CHECK_STREQ(STR(call(DIF_SUBR_SUBSTR, S("hello"), V(5))), "");
	CHECK_STREQ(STR(call(DIF_SUBR_SUBSTR, S("hello"), V(1), V(-1))), "ell");
	CHECK_STREQ(STR(call(DIF_SUBR_SUBSTR, S("hello"), V(-10), V(7))), "he");
	CHECK_STREQ(STR(call(DIF_SUBR_SUBSTR, S("hello"), V(-10), V(3))), "");
	CHECK_STREQ(STR(call(DIF_SUBR_SUBSTR, S("hello"), V(0), V(100))), "hello");
	CHECK_STREQ(STR(call(DIF_SUBR_SUBSTR, S("hello"), V(2), V(0))), "");
	CHECK_NOFAULT(e);
}

static void
test_index_rindex_strstr(void)
{
	CHECK_EQ(call(DIF_SUBR_INDEX, S("hello"), S("l")), 2);
	CHECK_EQ(call(DIF_SUBR_RINDEX, S("hello"), S("l")), 3);
	CHECK_EQ(call(DIF_SUBR_INDEX, S("hello"), S("z")), (uint64_t)-1);
	CHECK_EQ(call(DIF_SUBR_RINDEX, S("hello"), S("z")), (uint64_t)-1);
	CHECK_EQ(call(DIF_SUBR_INDEX, S("hello"), S("l"), V(3)), 3);
	CHECK_EQ(call(DIF_SUBR_INDEX, S("hello"), S("l"), V(4)), (uint64_t)-1);
	CHECK_EQ(call(DIF_SUBR_RINDEX, S("hello"), S("l"), V(2)), 2);
	CHECK_EQ(call(DIF_SUBR_RINDEX, S("hello"), S("l"), V(1)), (uint64_t)-1);
	CHECK_EQ(call(DIF_SUBR_INDEX, S("hello"), S("l"), V(-5)), 2); /* clamped to 0 */
	CHECK_EQ(call(DIF_SUBR_RINDEX, S("hello"), S("l"), V(99)), 3); /* clamped to len */
	/* Perl's empty-substring oddities, kept as DTrace keeps them. */
	CHECK_EQ(call(DIF_SUBR_INDEX, S(""), S("")), 0);
	CHECK_EQ(call(DIF_SUBR_INDEX, S("hello"), S(""), V(10)), 5);
	CHECK_EQ(call(DIF_SUBR_RINDEX, S("hello"), S(""), V(-1)), 0);
	CHECK_EQ(call(DIF_SUBR_RINDEX, S("hello"), S("")), 5);
	CHECK_EQ(call(DIF_SUBR_INDEX, S("hello"), S("hello!")), (uint64_t)-1);
	CHECK_STREQ(STR(call(DIF_SUBR_STRSTR, S("hello"), S("ll"))), "llo");
	CHECK_EQ(call(DIF_SUBR_STRSTR, S("hello"), S("lx")), 0);
	CHECK_STREQ(STR(call(DIF_SUBR_STRSTR, S(""), S(""))), "");
	CHECK_NOFAULT(e);
}

static void
test_strchr_strrchr(void)
{
	CHECK_STREQ(STR(call(DIF_SUBR_STRCHR, S("hello"), V('l'))), "llo");
	CHECK_STREQ(STR(call(DIF_SUBR_STRRCHR, S("hello"), V('l'))), "lo");
	CHECK_EQ(call(DIF_SUBR_STRCHR, S("hello"), V('z')), 0);
	CHECK_EQ(call(DIF_SUBR_STRRCHR, S("hello"), V('z')), 0);
	CHECK_STREQ(STR(call(DIF_SUBR_STRCHR, S("hello"), V(0))), ""); /* the NUL itself */
	CHECK_STREQ(STR(call(DIF_SUBR_STRCHR, S("hello"), V('h'))), "hello");
}

static void
test_strtok_continues_within_a_firing(void)
{
	CHECK_STREQ(STR(call(DIF_SUBR_STRTOK, S(",a,b,,c"), S(","))), "a");
	CHECK_STREQ(STR(call_again(DIF_SUBR_STRTOK, V(0), S(","))), "b");
	CHECK_STREQ(STR(call_again(DIF_SUBR_STRTOK, V(0), S(","))), "c");
	CHECK_EQ(call_again(DIF_SUBR_STRTOK, V(0), S(",")), 0);
	CHECK_EQ(call_again(DIF_SUBR_STRTOK, V(0), S(",")), 0);
	/* Several delimiters; a new firing forgets the saved position. */
	CHECK_STREQ(STR(call(DIF_SUBR_STRTOK, S("a b;c"), S("; "))), "a");
	CHECK_STREQ(STR(call_again(DIF_SUBR_STRTOK, V(0), S("; "))), "b");
	CHECK_EQ(call(DIF_SUBR_STRTOK, V(0), S(";")), 0);
	CHECK_EQ(call(DIF_SUBR_STRTOK, S(",,,"), S(",")), 0);
	CHECK_STREQ(STR(call(DIF_SUBR_STRTOK, S("abc"), S(""))), "abc");
	CHECK_NOFAULT(e);
}

static void
test_case_conversion(void)
{
	CHECK_STREQ(STR(call(DIF_SUBR_TOUPPER, S("Hello, World 1"))), "HELLO, WORLD 1");
	CHECK_STREQ(STR(call(DIF_SUBR_TOLOWER, S("Hello, World 1"))), "hello, world 1");
	CHECK_STREQ(STR(call(DIF_SUBR_TOUPPER, S(""))), "");
	e->state.dts_options[DTRACEOPT_STRSIZE] = 4;
	CHECK_STREQ(STR(call(DIF_SUBR_TOUPPER, S("abcdef"))), "ABC");
	e->state.dts_options[DTRACEOPT_STRSIZE] = 256;
}

static void
test_lltostr(void)
{
	CHECK_STREQ(STR(call(DIF_SUBR_LLTOSTR, V(123))), "123");
	CHECK_STREQ(STR(call(DIF_SUBR_LLTOSTR, V(-45))), "-45");
	CHECK_STREQ(STR(call(DIF_SUBR_LLTOSTR, V(0))), "0");
	CHECK_STREQ(STR(call(DIF_SUBR_LLTOSTR, V(INT64_MIN))), "-9223372036854775808");
	CHECK_STREQ(STR(call(DIF_SUBR_LLTOSTR, V(255), V(16))), "0xff");
	CHECK_STREQ(STR(call(DIF_SUBR_LLTOSTR, V(0), V(16))), "0x0");
	CHECK_STREQ(STR(call(DIF_SUBR_LLTOSTR, V(8), V(8))), "010");
	CHECK_STREQ(STR(call(DIF_SUBR_LLTOSTR, V(0), V(8))), "0");
	CHECK_STREQ(STR(call(DIF_SUBR_LLTOSTR, V(5), V(2))), "101");
	CHECK_STREQ(STR(call(DIF_SUBR_LLTOSTR, V(-1), V(16))), "0xffffffffffffffff");
	CHECK_STREQ(STR(call(DIF_SUBR_LLTOSTR, V(-1), V(2))),
		    "1111111111111111111111111111111111111111111111111111111111111111");
	CHECK_STREQ(STR(call(DIF_SUBR_LLTOSTR, V(35), V(36))), "z");
	CHECK_NOFAULT(e);
	CHECK_EQ(call(DIF_SUBR_LLTOSTR, V(5), V(1)), 0);
	CHECK_FAULT(e, DTRACE_CPUF_ILLOP, 1, CALL_OFFSET(2));
	call(DIF_SUBR_LLTOSTR, V(5), V(37));
	CHECK_FAULT(e, DTRACE_CPUF_ILLOP, 37, CALL_OFFSET(2));
}

static void
test_strtoll(void)
{
	CHECK_EQ(call(DIF_SUBR_STRTOLL, S("123")), 123);
	CHECK_EQ(call(DIF_SUBR_STRTOLL, S("-45")), (uint64_t)-45);
	CHECK_EQ(call(DIF_SUBR_STRTOLL, S(" \t+7")), 7);
	CHECK_EQ(call(DIF_SUBR_STRTOLL, S("0x1f"), V(16)), 31);
	CHECK_EQ(call(DIF_SUBR_STRTOLL, S("ff"), V(16)), 255);
	CHECK_EQ(call(DIF_SUBR_STRTOLL, S("0xg"), V(16)), 0); /* "0x" not followed by a digit */
	CHECK_EQ(call(DIF_SUBR_STRTOLL, S("Zz"), V(36)), 35 * 36 + 35);
	CHECK_EQ(call(DIF_SUBR_STRTOLL, S("12abc")), 12);
	CHECK_EQ(call(DIF_SUBR_STRTOLL, S("777"), V(8)), 511);
	CHECK_EQ(call(DIF_SUBR_STRTOLL, S("")), 0);
	CHECK_EQ(call(DIF_SUBR_STRTOLL, S("-")), 0);
	CHECK_NOFAULT(e);
	call(DIF_SUBR_STRTOLL, S("1"), V(1));
	CHECK_FAULT(e, DTRACE_CPUF_ILLOP, 1, CALL_OFFSET(2));
	/* Without access to the string: KPRIV (the faulting program returns 0). */
	static char k[] = "5";
	e->m.dtms_access = DTRACE_ACCESS_ARGS;
	targ_t a[] = {V((uintptr_t)k)};
	env_fire(e);
	e->m.dtms_access = DTRACE_ACCESS_ARGS;
	CHECK_EQ(call_args(false, DIF_SUBR_STRTOLL, 1, a), 0);
	CHECK_FAULT(e, DTRACE_CPUF_KPRIV, (uintptr_t)k, CALL_OFFSET(1));
	e->m.dtms_access = DTRACE_ACCESS_KERNEL | DTRACE_ACCESS_PROC | DTRACE_ACCESS_ARGS;
}

static void
test_basename_dirname(void)
{
	static const struct {
		const char *in, *base, *dir;
	} t[] = {
		{"/usr/lib/libc.so", "libc.so", "/usr/lib"},
		{"/usr/lib/", "lib", "/usr"},
		{"/", "/", "/"},
		{"///", "/", "/"},
		{"", ".", "."},
		{"foo", "foo", "."},
		{"/foo", "foo", "/"},
		{"usr//lib", "lib", "usr"},
		{"a/b//", "b", "a"},
		{"//a", "a", "/"},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CHECK_STREQ(STR(call(DIF_SUBR_BASENAME, S(t[i].in))), t[i].base);
		CHECK_STREQ(STR(call(DIF_SUBR_DIRNAME, S(t[i].in))), t[i].dir);
	}
	CHECK_NOFAULT(e);
}

static void
test_cleanpath(void)
{
	static const struct {
		const char *in, *out;
	} t[] = {
		{"/a/./b//c/../d", "/a/b/d"}, {"/a/..", "/"},	      {"/../x", "/x"},
		{"a/b/../c", "a/c"},	       {"/a/b/.hidden", "/a/b/.hidden"},
		{"/a/..b/c", "/a/..b/c"},      {"//", "/"},	      {"/a/b/..", "/a/"},
		{"", ""},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		CHECK_STREQ(STR(call(DIF_SUBR_CLEANPATH, S(t[i].in))), t[i].out);
	CHECK_NOFAULT(e);
}

static void
test_json(void)
{
	const char *doc = "{\"a\": 1, \"b\": {\"c\": [10, 20, {\"d\": \"x\\\"y\"}]}, "
			  "\"t\": true, \"n\": null, \"f\": -1.5e3, \"s\": \"str\"}";

	CHECK_STREQ(STR(call(DIF_SUBR_JSON, S(doc), S("a"))), "1");
	CHECK_STREQ(STR(call(DIF_SUBR_JSON, S(doc), S("b.c[1]"))), "20");
	CHECK_STREQ(STR(call(DIF_SUBR_JSON, S(doc), S("b.c[0]"))), "10");
	CHECK_STREQ(STR(call(DIF_SUBR_JSON, S(doc), S("b.c[2].d"))), "x\\\"y");
	CHECK_STREQ(STR(call(DIF_SUBR_JSON, S(doc), S("t"))), "true");
	CHECK_STREQ(STR(call(DIF_SUBR_JSON, S(doc), S("n"))), "null");
	CHECK_STREQ(STR(call(DIF_SUBR_JSON, S(doc), S("f"))), "-1.5e3");
	CHECK_STREQ(STR(call(DIF_SUBR_JSON, S(doc), S("s"))), "str");
	CHECK_STREQ(STR(call(DIF_SUBR_JSON, S(doc), S("b"))), "{\"c\": [10, 20, {\"d\": \"x\\\"y\"}]}");
	CHECK_EQ(call(DIF_SUBR_JSON, S(doc), S("zz")), 0);
	CHECK_EQ(call(DIF_SUBR_JSON, S(doc), S("b.c[7]")), 0);
	CHECK_EQ(call(DIF_SUBR_JSON, S(doc), S("a.x")), 0); /* not an object */
	CHECK_STREQ(STR(call(DIF_SUBR_JSON, S("[1, [2, 3], 4]"), S("[1][1]"))), "3");
	CHECK_STREQ(STR(call(DIF_SUBR_JSON, S("[1, [2, 3], 4]"), S("[2]"))), "4");
	CHECK_EQ(call(DIF_SUBR_JSON, S("{\"a\": 0x10}"), S("a")), 0);
	CHECK_EQ(call(DIF_SUBR_JSON, S("{\"a\" 1}"), S("a")), 0);
	CHECK_EQ(call(DIF_SUBR_JSON, S("not json"), S("a")), 0);
	CHECK_EQ(call(DIF_SUBR_JSON, S("{\"a\": [1, 2}"), S("a")), 0);
	CHECK_EQ(call(DIF_SUBR_JSON, S("{\"a\": \"\\u12\"}"), S("a")), 0);
	CHECK_NOFAULT(e);
}

static void
test_results_live_in_scratch_and_exhaust_it(void)
{
	uintptr_t r = call(DIF_SUBR_TOUPPER, S("x"));

	CHECK(dtrace_dif_inrange(r, 2, e->m.dtms_scratch_base, HARNESS_SCRATCH));
	/* Results take strsize bytes of scratch; ask for more than there is. */
	e->state.dts_options[DTRACEOPT_STRSIZE] = HARNESS_SCRATCH + 1;
	CHECK_EQ(call(DIF_SUBR_TOUPPER, S("x")), 0);
	CHECK_FAULT(e, DTRACE_CPUF_NOSCRATCH, 0, CALL_OFFSET(1));
	CHECK_EQ(call(DIF_SUBR_SUBSTR, S("x"), V(0)), 0);
	CHECK_FAULT(e, DTRACE_CPUF_NOSCRATCH, 0, CALL_OFFSET(2));
	CHECK_EQ(call(DIF_SUBR_BASENAME, S("x")), 0);
	CHECK_FAULT(e, DTRACE_CPUF_NOSCRATCH, 0, CALL_OFFSET(1));
	CHECK_EQ(call(DIF_SUBR_CLEANPATH, S("x")), 0);
	CHECK_FAULT(e, DTRACE_CPUF_NOSCRATCH, 0, CALL_OFFSET(1));
	CHECK_EQ(call(DIF_SUBR_STRTOK, S("x"), S(",")), 0);
	CHECK_FAULT(e, DTRACE_CPUF_NOSCRATCH, 0, CALL_OFFSET(2));
	e->state.dts_options[DTRACEOPT_STRSIZE] = 256;
}

int
main(void)
{
	env_init(e, 1);
	test_strlen();
	test_strjoin();
	test_substr();
	test_index_rindex_strstr();
	test_strchr_strrchr();
	test_strtok_continues_within_a_firing();
	test_case_conversion();
	test_lltostr();
	test_strtoll();
	test_basename_dirname();
	test_cleanpath();
	test_json();
	test_results_live_in_scratch_and_exhaust_it();
	call_release_all();
	env_fini(e);
	CHECK_EQ(testport_alloc_outstanding(), 0);
	return TEST_DONE();
}
