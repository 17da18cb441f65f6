/*
 * test_printf_conversions: the printf engine formats records as DTrace
 * does: every conversion, flag, width and precision, dynamic widths, the
 * DTrace extensions, and the refusal of malformed formats.
 */
#include <stdint.h>
#include <time.h>

#include "dt_testutil.h"

typedef struct dt_arg {
	uint32_t size;
	uint64_t u;         /* integer value (low `size' bytes are stored) */
	double d;           /* for size 8 with is_double */
	const char *s;      /* string contents (size bytes, NUL padded) */
	int is_double;
} dt_arg_t;

#define I(sz, v) {(sz), (uint64_t)(v), 0, NULL, 0}
#define D(v) {8, 0, (v), NULL, 1}
#define S(sz, str) {(sz), 0, 0, (str), 0}

/* Format `fmt' over records built from args; returns the text (or "ERROR"). */
static char *
fmt(dtrace_hdl_t *dtp, const char *format, const dt_arg_t *args, int nargs, int *consumed)
{
	static char buf[4096] __attribute__((aligned(8)));
	dt_layout_t l;
	dt_pfargv_t *pfv;
	dt_capture_t cap;
	int i, n;

	dt_layout_init(&l, sizeof(dtrace_rechdr_t));
	memset(buf, 0, sizeof(buf));
	for (i = 0; i < nargs; i++) {
		uint16_t align = args[i].s != NULL ? 1 : (uint16_t)args[i].size;
		int r = dt_layout_add(&l, DTRACEACT_PRINTF, args[i].size, align, 0);
		char *p = buf + l.recs[r].dtrd_offset;

		if (args[i].s != NULL)
			strncpy(p, args[i].s, args[i].size);
		else if (args[i].is_double)
			memcpy(p, &args[i].d, sizeof(double));
		else
			memcpy(p, &args[i].u, args[i].size); /* little-endian */
	}
	if ((pfv = dt_printf_create(dtp, format, 0)) == NULL)
		return strdup("ERROR");
	dt_capture_open(&cap);
	n = dt_printf_format(dtp, cap.fp, pfv, l.recs, (unsigned)l.nrecs, buf, dt_layout_total(&l),
	                     NULL, 0);
	dt_printf_destroy(pfv);
	if (consumed != NULL)
		*consumed = n;
	if (n < 0) {
		free(dt_capture_close(&cap));
		return strdup("ERROR");
	}
	return dt_capture_close(&cap);
}

static void
check(dtrace_hdl_t *dtp, const char *format, const dt_arg_t *args, int nargs, const char *want)
{
	char *got = fmt(dtp, format, args, nargs, NULL);

	DT_EXPECT_STR(got, want);
	free(got);
}

#define CHECK1(f, a, w)                                                                            \
	do {                                                                                       \
		dt_arg_t a_[] = {a};                                                               \
		check(dtp, f, a_, 1, w);                                                           \
	} while (0)

static void
test_integers(dtrace_hdl_t *dtp)
{
	CHECK1("%d", I(4, -5), "-5");
	CHECK1("%d", I(8, -5), "-5");
	CHECK1("%i", I(4, 123), "123");
	/* a %d that reaches the consumer as such (DTrace's compiler hands it %i or
	 * %u) prints 8- and 16-bit values from their unsigned bytes; %i is signed */
	CHECK1("%d", I(1, -1), "255");
	CHECK1("%d", I(2, -2), "65534");
	CHECK1("%i", I(2, -2), "-2");
	CHECK1("%i", I(1, -1), "-1");
	CHECK1("%u", I(4, -1), "4294967295");
	CHECK1("%llu", I(8, -1), "18446744073709551615");
	CHECK1("%lld", I(8, INT64_MIN), "-9223372036854775808");
	CHECK1("%llx", I(8, INT64_MIN), "8000000000000000");
	CHECK1("%x", I(4, 255), "ff");
	CHECK1("%X", I(4, 255), "FF");
	CHECK1("%#x", I(4, 255), "0xff");
	CHECK1("%o", I(4, 8), "10");
	CHECK1("%#o", I(4, 8), "010");
	CHECK1("%x", I(8, 0xdeadbeefcafeULL), "deadbeefcafe");
	CHECK1("%hd", I(4, 70000), "4464");
	CHECK1("%hx", I(4, 0x12345), "2345");
	CHECK1("%c", I(1, 'A'), "A");
	CHECK1("%c", I(4, 'z'), "z");
	CHECK1("% d", I(4, 5), " 5");
	/* %p is hexadecimal without 0x; %? sets the pointer width */
	CHECK1("%p", I(8, 0x1000), "1000");
	CHECK1("%?p|", I(8, 0x1000), "            1000|");

	{
		dt_arg_t a[] = {I(4, 42), I(4, 42), I(4, 42), I(4, 42)};

		check(dtp, "%5d|%-5d|%05d|%+d", a, 4, "   42|42   |00042|+42");
	}
	{
		dt_arg_t a[] = {I(4, 1), I(8, 2)};

		check(dtp, "x=%d y=%d\n", a, 2, "x=1 y=2\n");
	}
}

static void
test_floats(dtrace_hdl_t *dtp)
{
	CHECK1("%e", D(1234.5), "1.234500e+03");
	CHECK1("%E", D(1234.5), "1.234500E+03");
	CHECK1("%f", D(1234.5), "1234.500000");
	CHECK1("%g", D(1234.5), "1234.5");
	CHECK1("%.2f", D(1234.5), "1234.50");
	CHECK1("%10.1f|", D(-2.25), "      -2.2|");
	/* as in DTrace, a precision of 0 is the same as none */
	CHECK1("%.0f", D(1234.5), "1234.500000");
}

static void
test_strings(dtrace_hdl_t *dtp)
{
	CHECK1("%s", S(16, "hello"), "hello");
	CHECK1("%10s|", S(16, "hello"), "     hello|");
	CHECK1("%-10s|", S(16, "hello"), "hello     |");
	CHECK1("%.3s", S(16, "hello"), "hel");
	/* a string that fills its record has no NUL: still printed whole */
	CHECK1("%s", S(4, "abcd"), "abcd");
	/* %S escapes and stops after the first NUL, which it shows */
	CHECK1("%S", S(8, "a\tb\""), "a\\tb\\\"\\0");
	CHECK1("%S", S(4, "x\033yz"), "x\\033yz");
	CHECK1("%C", I(1, '\n'), "\\n");
	CHECK1("%C", I(4, 'q'), "q");
}

static void
test_percent_and_text(dtrace_hdl_t *dtp)
{
	int n = -1;
	char *got = fmt(dtp, "100%%\n", NULL, 0, &n);

	DT_EXPECT_STR(got, "100%\n");
	DT_CHECK(n == 0);
	free(got);

	got = fmt(dtp, "just text", NULL, 0, &n);
	DT_EXPECT_STR(got, "just text");
	free(got);

	{
		dt_arg_t a[] = {I(4, 7)};

		check(dtp, "%d%%", a, 1, "7%");
	}
}

static void
test_dynamic(dtrace_hdl_t *dtp)
{
	{
		dt_arg_t a[] = {I(4, 5), I(4, 42)};

		check(dtp, "%*d|", a, 2, "   42|");
		check(dtp, "%-*d|", a, 2, "42   |");
	}
	{
		dt_arg_t a[] = {I(4, 2), S(16, "hello")};

		check(dtp, "%.*s|", a, 2, "he|");
	}
	{
		dt_arg_t a[] = {I(4, 6), I(4, 3), D(3.14159)};

		check(dtp, "%*.*f|", a, 3, " 3.142|");
	}
	{
		/* records consumed: one per conversion, one per '*' */
		dt_arg_t a[] = {I(4, 5), I(4, 42), I(8, 1)};
		int n = -1;
		char *got = fmt(dtp, "%*d %d", a, 3, &n);

		DT_EXPECT_STR(got, "   42 1");
		DT_CHECK(n == 3);
		free(got);
	}
}

static void
test_time_and_addr(dtrace_hdl_t *dtp)
{
	setenv("TZ", "UTC", 1);
	tzset();
	CHECK1("%Y", I(8, 0), "1970 Jan  1 00:00:00");
	CHECK1("%Y", I(8, 1234567890ULL * 1000000000ULL), "2009 Feb 13 23:31:30");
	CHECK1("%T", I(8, 1234567890ULL * 1000000000ULL), "Fri, 13 Feb 2009 23:31:30 UTC");
	CHECK1("[%25Y]", I(8, 0), "[     1970 Jan  1 00:00:00]");
	/* an address in no mapped object prints as a number */
	CHECK1("%a", I(8, 0x10), "0x10");
	CHECK1("%-8a|", I(8, 0x10), "0x10    |");
	/* an address in this program names its function */
	{
		dt_arg_t a[] = {I(8, (uint64_t)(uintptr_t)&fmt)};
		char *got = fmt(dtp, "%a", a, 1, NULL);

		DT_CHECK(strstr(got, "`fmt") != NULL);
		DT_CHECK(strstr(got, "+0x") == NULL);
		free(got);
	}
	/*
	 * %A of a bare address looks in $target's address space (-p/-c), not
	 * ours: pid 1 does not map this program's fmt() where we do.
	 */
	{
		dt_arg_t a[] = {I(8, (uint64_t)(uintptr_t)&fmt)};
		char *got = fmt(dtp, "%A", a, 1, NULL);

		DT_CHECK(strstr(got, "`fmt") != NULL);
		free(got);
		dtp->dt_target = 1;
		got = fmt(dtp, "%A", a, 1, NULL);
		DT_CHECK(strstr(got, "`fmt") == NULL);
		free(got);
		dtp->dt_target = 0;
	}
}

/* %k over a two-frame stack() record whose frames name no object. */
static char *
fmt_stack(dtrace_hdl_t *dtp, const char *format, const dt_arg_t *dyn)
{
	static uint64_t buf[8];
	dt_layout_t l;
	dt_pfargv_t *pfv;
	dt_capture_t cap;
	int r, n;

	dt_layout_init(&l, sizeof(dtrace_rechdr_t));
	memset(buf, 0, sizeof(buf));
	if (dyn != NULL) {
		r = dt_layout_add(&l, DTRACEACT_PRINTF, 4, 4, 0);
		memcpy((char *)buf + l.recs[r].dtrd_offset, &dyn->u, 4);
	}
	r = dt_layout_add(&l, DTRACEACT_STACK, 2 * sizeof(uint64_t), 8, 2);
	((uint64_t *)((char *)buf + l.recs[r].dtrd_offset))[0] = 0x10;
	((uint64_t *)((char *)buf + l.recs[r].dtrd_offset))[1] = 0x20;
	if ((pfv = dt_printf_create(dtp, format, 0)) == NULL)
		return strdup("ERROR");
	dt_capture_open(&cap);
	n = dt_printf_format(dtp, cap.fp, pfv, l.recs, (unsigned)l.nrecs, (const char *)buf,
	                     dt_layout_total(&l), NULL, 0);
	dt_printf_destroy(pfv);
	if (n < 0) {
		free(dt_capture_close(&cap));
		return strdup("ERROR");
	}
	return dt_capture_close(&cap);
}

/*
 * %k: one frame a line after a newline; a right-justified width pads each
 * frame, a left-justified one indents instead (DTrace drops it from the
 * frame's format), and a negative '*' width does both.
 */
static void
test_stack(dtrace_hdl_t *dtp)
{
	dt_arg_t neg = I(4, (uint32_t)-6);
	char *got;

	got = fmt_stack(dtp, "<%k|>", NULL);
	DT_EXPECT_STR(got, "<\n0x10\n0x20\n|>");
	free(got);
	got = fmt_stack(dtp, "<%8k|>", NULL);
	DT_EXPECT_STR(got, "<\n    0x10\n    0x20\n|>");
	free(got);
	got = fmt_stack(dtp, "<%-6k|>", NULL);
	DT_EXPECT_STR(got, "<\n      0x10\n      0x20\n|>");
	free(got);
	got = fmt_stack(dtp, "<%*k|>", &neg);
	DT_EXPECT_STR(got, "<\n      0x10  \n      0x20  \n|>");
	free(got);
}

static void
test_errors(dtrace_hdl_t *dtp)
{
	dt_pfargv_t *pfv;

	DT_CHECK(dt_printf_create(dtp, "%Q", 0) == NULL && dtrace_errno(dtp) == EDT_BADCONV);
	DT_CHECK(dt_printf_create(dtp, "abc %", 0) == NULL);
	DT_CHECK(dt_printf_create(dtp, "%1$d", 0) == NULL);
	DT_CHECK(dt_printf_create(dtp, "%**d", 0) == NULL);
	DT_CHECK(dt_printf_create(dtp, "%-%", 0) == NULL);
	DT_CHECK(dt_printf_create(dtp, "%..2d", 0) == NULL);
	pfv = dt_printf_create(dtp, "%d %d", 0);
	DT_CHECK(pfv != NULL);
	dt_printf_destroy(pfv);

	/* more conversions than records */
	{
		dt_arg_t a[] = {I(4, 1)};
		char *got = fmt(dtp, "%d %d", a, 1, NULL);

		DT_EXPECT_STR(got, "ERROR");
		DT_CHECK(dtrace_errno(dtp) == EDT_DMISMATCH);
		free(got);
	}
	/* a float conversion of a 2-byte value */
	{
		dt_arg_t a[] = {I(2, 1)};
		char *got = fmt(dtp, "%f", a, 1, NULL);

		DT_EXPECT_STR(got, "ERROR");
		free(got);
	}
}

int
main(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();

	test_integers(dtp);
	test_floats(dtp);
	test_strings(dtp);
	test_percent_and_text(dtp);
	test_dynamic(dtp);
	test_time_and_addr(dtp);
	test_stack(dtp);
	test_errors(dtp);
	dt_handle_destroy(dtp);
	return dt_test_result("test_printf_conversions");
}
