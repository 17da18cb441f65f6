/*
 * test_consume_records: firings in a principal buffer come out as DTrace
 * prints them: trace() by size, quiet or not; printf(); tracemem() dumps;
 * ERROR firings and drops as DTrace words them; flowindent's arrows and
 * indentation; callbacks that skip or abort.
 */
#include <stdint.h>

#include "dt_testutil.h"

static char rbuf[4096] __attribute__((aligned(8)));
static size_t rlen;

/* Append a firing of `epid' with the given record values (8-aligned). */
static char *
fire(dtrace_hdl_t *dtp, dtrace_epid_t epid)
{
	dtrace_eprobedesc_t *epd;
	dtrace_probedesc_t *pd;
	char *rec = rbuf + rlen;

	DT_CHECK(dt_epid_lookup(dtp, epid, &epd, &pd) == 0);
	memset(rec, 0, epd->dtepd_size);
	((dtrace_rechdr_t *)rec)->dtrh_epid = epid;
	rlen += epd->dtepd_size;
	return rec;
}

static char *
consume(dtrace_hdl_t *dtp, dtrace_consume_probe_f *pf, dtrace_consume_rec_f *rf, void *arg,
	int *rvp)
{
	dt_capture_t cap;
	int rv;

	dt_capture_open(&cap);
	rv = dt_consume_records(dtp, cap.fp, 0, rbuf, rlen, pf, rf, arg);
	if (rvp != NULL)
		*rvp = rv;
	else
		DT_CHECK(rv == 0);
	rlen = 0;
	return dt_capture_close(&cap);
}

static void
test_trace(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_layout_t l;
	char *r, *out;
	int i64, str, i32, i16, i8;

	dt_layout_init(&l, sizeof(dtrace_rechdr_t));
	i64 = dt_layout_add(&l, DTRACEACT_DIFEXPR, 8, 8, 0);
	str = dt_layout_add(&l, DTRACEACT_DIFEXPR, 16, 1, 0);
	i32 = dt_layout_add(&l, DTRACEACT_DIFEXPR, 4, 4, 0);
	i16 = dt_layout_add(&l, DTRACEACT_DIFEXPR, 2, 2, 0);
	i8 = dt_layout_add(&l, DTRACEACT_DIFEXPR, 1, 1, 0);
	dt_test_epid(dtp, 1, 1, "dtrace", "", "", "BEGIN", &l);

	r = fire(dtp, 1);
	*(int64_t *)(r + l.recs[i64].dtrd_offset) = -42;
	strcpy(r + l.recs[str].dtrd_offset, "hello");
	*(int32_t *)(r + l.recs[i32].dtrd_offset) = -7;
	*(int16_t *)(r + l.recs[i16].dtrd_offset) = -2;
	*(int8_t *)(r + l.recs[i8].dtrd_offset) = -2;
	out = consume(dtp, NULL, NULL, NULL, NULL);
	DT_EXPECT_STR(out, "              -42  hello                                   -7 65534 254");
	free(out);

	DT_CHECK(dtrace_setopt(dtp, "quiet", NULL) == 0);
	r = fire(dtp, 1);
	*(int64_t *)(r + l.recs[i64].dtrd_offset) = -42;
	strcpy(r + l.recs[str].dtrd_offset, "hello");
	*(int32_t *)(r + l.recs[i32].dtrd_offset) = -7;
	*(int16_t *)(r + l.recs[i16].dtrd_offset) = -2;
	*(int8_t *)(r + l.recs[i8].dtrd_offset) = -2;
	out = consume(dtp, NULL, NULL, NULL, NULL);
	DT_EXPECT_STR(out, "-42hello-765534254");
	free(out);
	dt_handle_destroy(dtp);
}

static void
test_printf_and_tracemem(void)
{
	static const char data[] = "hello, world!\0\001\002\377 ABC";
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_layout_t l;
	char *r, *out;
	int a, b, m;

	/* printf("%s is %d\n", s, n) then tracemem(p, 21) */
	dt_layout_init(&l, sizeof(dtrace_rechdr_t));
	a = dt_layout_add(&l, DTRACEACT_PRINTF, 8, 1, 0);
	b = dt_layout_add(&l, DTRACEACT_PRINTF, 4, 4, 0);
	l.recs[a].dtrd_format = l.recs[b].dtrd_format = 1;
	l.recs[a].dtrd_uarg = l.recs[b].dtrd_uarg = 300;
	m = dt_layout_add(&l, DTRACEACT_TRACEMEM, 21, 1, 21);
	dt_test_epid(dtp, 3, 4, "profile", "", "", "tick-1s", &l);
	DT_CHECK(dt_format_add(dtp, 1, "%s is %d\n", 0) == 0);

	r = fire(dtp, 3);
	strcpy(r + l.recs[a].dtrd_offset, "answer");
	*(int32_t *)(r + l.recs[b].dtrd_offset) = 42;
	memcpy(r + l.recs[m].dtrd_offset, data, 21);
	out = consume(dtp, NULL, NULL, NULL, NULL);
	DT_EXPECT_STR(out, "answer is 42\n"
	                   "\n"
	                   "             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  "
	                   "0123456789abcdef\n"
	                   "         0: 68 65 6c 6c 6f 2c 20 77 6f 72 6c 64 21 00 01 02  "
	                   "hello, world!...\n"
	                   "        10: ff 20 41 42 43                                   . ABC\n");
	free(out);
	dt_handle_destroy(dtp);
}

typedef struct seen {
	char text[4096];
	int nprobes, nrecs, nnull;
} seen_t;

static int
err_handler(const dtrace_errdata_t *data, void *arg)
{
	seen_t *s = arg;

	strcat(s->text, data->dteda_msg);
	return DTRACE_HANDLE_OK;
}

static int
drop_handler(const dtrace_dropdata_t *data, void *arg)
{
	seen_t *s = arg;

	strcat(s->text, data->dtdda_msg);
	return DTRACE_HANDLE_OK;
}

static void
test_errors_and_drops(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dtrace_status_t st0, st1;
	seen_t s;
	dt_layout_t l, e;
	char *r, *out;
	int i, rv;

	memset(&s, 0, sizeof(s));
	dt_layout_init(&l, sizeof(dtrace_rechdr_t));
	dt_layout_add(&l, DTRACEACT_DIFEXPR, 8, 8, 0);
	dt_test_epid(dtp, 2, 1, "dtrace", "", "", "BEGIN", &l);
	dt_layout_init(&e, sizeof(dtrace_rechdr_t));
	for (i = 0; i < 5; i++)
		dt_layout_add(&e, DTRACEACT_DIFEXPR, 8, 8, 0);
	dt_test_epid(dtp, 1, 3, "dtrace", "", "", "ERROR", &e);
	dtp->dt_edesc[1]->dtepd_uarg = 55;
	dtp->dt_erruarg = 55;

	/* without a handler an error aborts consumption */
	r = fire(dtp, 1);
	((uint64_t *)(r + e.recs[0].dtrd_offset))[0] = 2;
	out = consume(dtp, NULL, NULL, NULL, &rv);
	DT_CHECK(rv == -1 && dtrace_errno(dtp) == EDT_ERRABORT);
	free(out);

	DT_CHECK(dtrace_handle_err(dtp, err_handler, &s) == 0);
	DT_CHECK(dtrace_handle_err(dtp, err_handler, &s) == -1);
	r = fire(dtp, 1);
	*(uint64_t *)(r + e.recs[0].dtrd_offset) = 2;                 /* epid */
	*(uint64_t *)(r + e.recs[1].dtrd_offset) = 1;                 /* action */
	*(uint64_t *)(r + e.recs[2].dtrd_offset) = 8;                 /* DIF offset */
	*(uint64_t *)(r + e.recs[3].dtrd_offset) = DTRACEFLT_BADADDR; /* fault */
	*(uint64_t *)(r + e.recs[4].dtrd_offset) = 0;                 /* address */
	r = fire(dtp, 1);
	*(uint64_t *)(r + e.recs[0].dtrd_offset) = 2;
	*(uint64_t *)(r + e.recs[1].dtrd_offset) = 0;
	*(int64_t *)(r + e.recs[2].dtrd_offset) = -1;
	*(uint64_t *)(r + e.recs[3].dtrd_offset) = DTRACEFLT_DIVZERO;
	out = consume(dtp, NULL, NULL, NULL, NULL);
	DT_EXPECT_STR(out, ""); /* errors go to the handler, not the output */
	free(out);
	DT_EXPECT_STR(s.text, "error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): invalid address "
	                      "(0x0) in action #1 at DIF offset 8\n"
	                      "error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): divide-by-zero in "
	                      "predicate\n");

	/* drops: per CPU from snapshots, state-wide from status */
	s.text[0] = '\0';
	DT_CHECK(dt_handle_cpudrop(dtp, 1, DTRACEDROP_PRINCIPAL, 3) == -1 &&
	         dtrace_errno(dtp) == EDT_DROPABORT);
	DT_CHECK(dtrace_handle_drop(dtp, drop_handler, &s) == 0);
	DT_CHECK(dt_handle_cpudrop(dtp, 1, DTRACEDROP_PRINCIPAL, 3) == 0);
	DT_CHECK(dt_handle_cpudrop(dtp, 0, DTRACEDROP_PRINCIPAL, 1) == 0);
	DT_CHECK(dt_handle_cpudrop(dtp, 0, DTRACEDROP_AGGREGATION, 1) == 0);
	memset(&st0, 0, sizeof(st0));
	st1 = st0;
	st0.dtst_dyndrops = 1;
	st1.dtst_dyndrops = 4;
	st1.dtst_specdrops_unavail = 1;
	st1.dtst_specdrops = 2;
	st1.dtst_dblerrors = 1;
	DT_CHECK(dt_handle_status(dtp, &st0, &st1) == 0);
	DT_EXPECT_STR(s.text, "3 drops on CPU 1\n"
	                      "1 drop on CPU 0\n"
	                      "1 aggregation drop on CPU 0\n"
	                      "3 dynamic variable drops\n"
	                      "2 speculative drops\n"
	                      "1 failed speculation (no speculative buffer available)\n"
	                      "1 error in ERROR probe enabling\n");
	st1.dtst_killed = 1;
	DT_CHECK(dt_handle_status(dtp, &st0, &st1) == -1 && dtrace_errno(dtp) == EDT_BRICKED);
	dt_handle_destroy(dtp);
}

typedef struct flowseen {
	char text[1024];
} flowseen_t;

static int
flow_probe(const dtrace_probedata_t *data, void *arg)
{
	flowseen_t *f = arg;
	char line[256];

	snprintf(line, sizeof(line), "%*s%s%s\n", data->dtpda_indent, "", data->dtpda_prefix,
	         data->dtpda_pdesc->dtpd_func);
	strcat(f->text, line);
	return DTRACE_CONSUME_NEXT;
}

static void
test_flowindent(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	flowseen_t f;
	dt_layout_t l;
	char *out;

	memset(&f, 0, sizeof(f));
	dt_layout_init(&l, sizeof(dtrace_rechdr_t));
	dt_test_epid(dtp, 1, 10, "fbt", "m", "foo", "entry", &l);
	dt_test_epid(dtp, 2, 11, "fbt", "m", "bar", "entry", &l);
	dt_test_epid(dtp, 3, 12, "fbt", "m", "bar", "return", &l);
	dt_test_epid(dtp, 4, 13, "fbt", "m", "foo", "return", &l);
	dt_test_epid(dtp, 5, 14, "profile", "", "", "tick-1s", &l);
	DT_CHECK(dtrace_setopt(dtp, "flowindent", NULL) == 0);
	fire(dtp, 1);
	fire(dtp, 2);
	fire(dtp, 5);
	fire(dtp, 3);
	fire(dtp, 4);
	out = consume(dtp, flow_probe, NULL, &f, NULL);
	DT_EXPECT_STR(out, "");
	free(out);
	DT_EXPECT_STR(f.text, " -> foo\n"
	                      "   -> bar\n"
	                      "    | \n"
	                      "   <- bar\n"
	                      " <- foo\n");
	dt_handle_destroy(dtp);
}

static int
count_probe(const dtrace_probedata_t *data, void *arg)
{
	seen_t *s = arg;

	(void)data;
	s->nprobes++;
	return DTRACE_CONSUME_THIS;
}

static int
skip_records(const dtrace_probedata_t *data, const dtrace_recdesc_t *rec, void *arg)
{
	seen_t *s = arg;

	(void)data;
	if (rec == NULL) {
		s->nnull++;
		return DTRACE_CONSUME_NEXT;
	}
	s->nrecs++;
	return DTRACE_CONSUME_NEXT;
}

static int
abort_probe(const dtrace_probedata_t *data, void *arg)
{
	(void)data;
	(void)arg;
	return DTRACE_CONSUME_ABORT;
}

static void
test_callbacks(void)
{
	dtrace_hdl_t *dtp = dt_test_handle();
	dt_layout_t l;
	seen_t s;
	char *out;
	int rv;

	memset(&s, 0, sizeof(s));
	dt_layout_init(&l, sizeof(dtrace_rechdr_t));
	dt_layout_add(&l, DTRACEACT_DIFEXPR, 8, 8, 0);
	dt_layout_add(&l, DTRACEACT_DIFEXPR, 8, 8, 0);
	dt_test_epid(dtp, 1, 1, "dtrace", "", "", "BEGIN", &l);
	fire(dtp, 1);
	/* a filler word between firings is skipped */
	memset(rbuf + rlen, 0, 2 * sizeof(dtrace_epid_t));
	rlen += 2 * sizeof(dtrace_epid_t);
	fire(dtp, 1);
	out = consume(dtp, count_probe, skip_records, &s, NULL);
	DT_EXPECT_STR(out, "");
	free(out);
	DT_CHECK(s.nprobes == 2 && s.nrecs == 4 && s.nnull == 2);

	fire(dtp, 1);
	out = consume(dtp, abort_probe, NULL, NULL, &rv);
	DT_CHECK(rv == -1 && dtrace_errno(dtp) == EDT_DIRABORT);
	free(out);

	/* a firing cut short by the end of the buffer */
	fire(dtp, 1);
	rlen -= 8;
	out = consume(dtp, NULL, NULL, NULL, &rv);
	DT_CHECK(rv == -1 && dtrace_errno(dtp) == EDT_DOFFSET);
	free(out);
	dt_handle_destroy(dtp);
}

int
main(void)
{
	test_trace();
	test_printf_and_tracemem();
	test_errors_and_drops();
	test_flowindent();
	test_callbacks();
	return dt_test_result("test_consume_records");
}
