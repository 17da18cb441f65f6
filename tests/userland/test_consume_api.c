/*
 * test_consume_api: another program than the dtrace command, written
 * against the public interface (libdtrace.h) alone, traces with a real core:
 * open, set options, compile, enable, go, then sleep and work with its own
 * probe and record callbacks until exit(), stop, walk and print the
 * aggregations, close.  It checks what each callback receives (probe ids,
 * names, record kinds and values, the exit status, the ERROR handler's
 * fault), what the library formats for the records it is left, that a
 * callback can skip or abort, that two handles trace side by side, and
 * the errors the interface promises (unknown options, frozen options,
 * wrong version, no probes).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libdtrace.h"

static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

#define CHECK_STR(got, want)                                                                       \
	do {                                                                                       \
		const char *g_ = (got), *w_ = (want);                                              \
		if (g_ == NULL || strcmp(g_, w_) != 0) {                                           \
			fprintf(stderr, "%s:%d: expected \"%s\", got \"%s\"\n", __FILE__,          \
			        __LINE__, w_, g_ != NULL ? g_ : "(null)");                         \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

/* What the callbacks saw. */
typedef struct seen {
	char probes[16][DTRACE_PROVNAMELEN + DTRACE_MODNAMELEN + DTRACE_FUNCNAMELEN +
	                DTRACE_NAMELEN + 16]; /* "ID provider:::name" per firing, in order */
	int nprobes;
	int nends;         /* NULL record callbacks: firings complete */
	int64_t traced[8]; /* trace() integers, taken by the record callback */
	int ntraced;
	char strings[4][32]; /* trace() strings */
	int nstrings;
	int exitval;
	int nexits;
	int nprintf; /* printf records left to the library */
	int nerrors;
	int errfault;
	int erraction;
	uint64_t erraddr;
	char errmsg[256];
	int ndrops;
	int skip_at;     /* probe callback: skip this firing (0: never) */
	int abort_after; /* probe callback: abort at this firing (0: never) */
} seen_t;

static int
probe_cb(const dtrace_probedata_t *data, void *arg)
{
	seen_t *s = arg;
	const dtrace_probedesc_t *pd = data->dtpda_pdesc;

	if (s->nprobes < 16)
		(void)snprintf(s->probes[s->nprobes], sizeof(s->probes[0]), "%u %s:%s:%s:%s",
		               pd->dtpd_id, pd->dtpd_provider, pd->dtpd_mod, pd->dtpd_func,
		               pd->dtpd_name);
	s->nprobes++;
	if (s->abort_after != 0 && s->nprobes >= s->abort_after)
		return DTRACE_CONSUME_ABORT;
	/* a skipped firing: none of its records reach the record callback */
	if (s->nprobes == s->skip_at)
		return DTRACE_CONSUME_NEXT;
	return DTRACE_CONSUME_THIS;
}

static int
rec_cb(const dtrace_probedata_t *data, const dtrace_recdesc_t *rec, void *arg)
{
	seen_t *s = arg;
	const char *addr = data->dtpda_data;

	if (rec == NULL) {
		s->nends++;
		return DTRACE_CONSUME_NEXT;
	}
	switch (rec->dtrd_action) {
	case DTRACEACT_EXIT:
		CHECK(rec->dtrd_size == sizeof(int32_t));
		s->exitval = *(const int32_t *)addr;
		s->nexits++;
		return DTRACE_CONSUME_NEXT;
	case DTRACEACT_PRINTF:
		s->nprintf++;
		return DTRACE_CONSUME_THIS;
	case DTRACEACT_DIFEXPR:
		/* trace() of an int records 4 bytes, of a long 8 */
		if (rec->dtrd_size == sizeof(int32_t) && s->ntraced < 8) {
			s->traced[s->ntraced++] = *(const int32_t *)addr;
			return DTRACE_CONSUME_NEXT;
		}
		if (rec->dtrd_size == sizeof(int64_t) && s->ntraced < 8) {
			s->traced[s->ntraced++] = *(const int64_t *)addr;
			return DTRACE_CONSUME_NEXT;
		}
		if (rec->dtrd_size > sizeof(int64_t) && s->nstrings < 4) {
			(void)snprintf(s->strings[s->nstrings++], sizeof(s->strings[0]), "%.*s",
			               (int)rec->dtrd_size, addr);
			return DTRACE_CONSUME_NEXT;
		}
		return DTRACE_CONSUME_THIS;
	default:
		return DTRACE_CONSUME_THIS;
	}
}

static int
err_cb(const dtrace_errdata_t *data, void *arg)
{
	seen_t *s = arg;

	s->nerrors++;
	s->errfault = data->dteda_fault;
	s->erraction = data->dteda_action;
	s->erraddr = data->dteda_addr;
	(void)snprintf(s->errmsg, sizeof(s->errmsg), "%s", data->dteda_msg);
	return DTRACE_HANDLE_OK;
}

static int
drop_cb(const dtrace_dropdata_t *data, void *arg)
{
	seen_t *s = arg;

	(void)data;
	s->ndrops++;
	return DTRACE_HANDLE_OK;
}

/* The aggregation walk: "name key value" for count()/sum() with one string key. */
typedef struct aggseen {
	char lines[8][96];
	int n;
} aggseen_t;

static int
agg_cb(const dtrace_aggdata_t *agg, void *arg)
{
	aggseen_t *a = arg;
	const dtrace_aggdesc_t *desc = agg->dtada_desc;
	const dtrace_recdesc_t *vrec = &desc->dtagd_rec[desc->dtagd_nrecs - 1];
	int64_t value = *(const int64_t *)(agg->dtada_data + vrec->dtrd_offset);
	const char *key = "";
	int i;

	/* dtagd_rec[0] is the aggregation's id; the key records follow */
	for (i = 1; i < desc->dtagd_nrecs - 1; i++) {
		if (desc->dtagd_rec[i].dtrd_size > sizeof(uint64_t))
			key = agg->dtada_data + desc->dtagd_rec[i].dtrd_offset;
	}
	if (a->n < 8)
		(void)snprintf(a->lines[a->n], sizeof(a->lines[0]), "%s %s %lld %s",
		               desc->dtagd_name != NULL ? desc->dtagd_name : "?", key,
		               (long long)value,
		               vrec->dtrd_action == DTRACEAGG_COUNT ? "count"
		               : vrec->dtrd_action == DTRACEAGG_SUM ? "sum"
		                                                    : "other");
	a->n++;
	return DTRACE_AGGWALK_NEXT;
}

/* Collect what a FILE receives. */
typedef struct capture {
	FILE *fp;
	char *buf;
	size_t len;
} capture_t;

static void
cap_open(capture_t *c)
{
	c->buf = NULL;
	c->len = 0;
	c->fp = open_memstream(&c->buf, &c->len);
}

static char *
cap_text(capture_t *c)
{
	(void)fflush(c->fp);
	return c->buf;
}

static void
cap_close(capture_t *c)
{
	(void)fclose(c->fp);
	free(c->buf);
}

/* Work until the run is over; returns the last work status. */
static dtrace_workstatus_t
run(dtrace_hdl_t *dtp, FILE *fp, seen_t *s)
{
	dtrace_workstatus_t st;
	int rounds = 0;

	do {
		dtrace_sleep(dtp);
		st = dtrace_work(dtp, fp, probe_cb, rec_cb, s);
	} while (st == DTRACE_WORKSTATUS_OKAY && ++rounds < 100000);
	return st;
}

static const char program[] = "BEGIN\n"
                              "{\n"
                              "	trace(42);\n"
                              "	trace(\"hello\");\n"
                              "	printf(\"%d-%s\\n\", 7, \"x\");\n"
                              "	@c[\"b\"] = count();\n"
                              "	@c[\"a\"] = count();\n"
                              "	@c[\"b\"] = count();\n"
                              "	@s[\"total\"] = sum(5);\n"
                              "}\n"
                              "\n"
                              "BEGIN\n"
                              "{\n"
                              "	trace(*(int *)0);\n"
                              "}\n"
                              "\n"
                              "tick-10ms\n"
                              "/i++ == 2/\n"
                              "{\n"
                              "	exit(3);\n"
                              "}\n"
                              "\n"
                              "END\n"
                              "{\n"
                              "	trace(-1L);\n"
                              "}\n";

static void
test_whole_run(void)
{
	dtrace_hdl_t *dtp;
	dtrace_prog_t *pgp;
	dtrace_proginfo_t info;
	dtrace_optval_t val;
	seen_t s;
	aggseen_t a;
	capture_t out, aggout;
	int err;

	memset(&s, 0, sizeof(s));
	memset(&a, 0, sizeof(a));

	dtp = dtrace_open(DTRACE_VERSION, 0, &err);
	CHECK(dtp != NULL);
	if (dtp == NULL) {
		fprintf(stderr, "dtrace_open: %s\n", dtrace_errmsg(NULL, err));
		return;
	}

	CHECK(dtrace_setopt(dtp, "bufsize", "64k") == 0);
	CHECK(dtrace_setopt(dtp, "aggsize", "64k") == 0);
	CHECK(dtrace_setopt(dtp, "switchrate", "10ms") == 0);
	CHECK(dtrace_setopt(dtp, "aggrate", "10ms") == 0);
	CHECK(dtrace_setopt(dtp, "quiet", NULL) == 0);
	CHECK(dtrace_getopt(dtp, "bufsize", &val) == 0 && val == 64 * 1024);
	CHECK(dtrace_getopt(dtp, "switchrate", &val) == 0 && val == 10 * 1000 * 1000);
	CHECK(dtrace_setopt(dtp, "nosuchoption", NULL) == -1 &&
	      dtrace_errno(dtp) == EDT_BADOPTNAME);
	CHECK(dtrace_setopt(dtp, "bufsize", "lots") == -1 && dtrace_errno(dtp) == EDT_BADOPTVAL);

	CHECK(dtrace_handle_err(dtp, err_cb, &s) == 0);
	CHECK(dtrace_handle_err(dtp, err_cb, &s) == -1 && dtrace_errno(dtp) == EALREADY);
	CHECK(dtrace_handle_drop(dtp, drop_cb, &s) == 0);

	/* a program with an error fails with the compiler's message */
	CHECK(dtrace_program_strcompile(dtp, "BEGIN { trace(nosuchvar); }", DTRACE_PROBESPEC_NAME,
	                                0, 0, NULL) == NULL);
	CHECK(dtrace_errno(dtp) == EDT_COMPILER);
	CHECK(strstr(dtrace_errmsg(dtp, dtrace_errno(dtp)), "nosuchvar") != NULL);

	pgp = dtrace_program_strcompile(dtp, program, DTRACE_PROBESPEC_NAME, 0, 0, NULL);
	CHECK(pgp != NULL);
	if (pgp == NULL) {
		fprintf(stderr, "compile: %s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		dtrace_close(dtp);
		return;
	}
	memset(&info, 0, sizeof(info));
	CHECK(dtrace_program_exec(dtp, pgp, &info) == 0);
	/* BEGIN twice, tick-10ms, END */
	CHECK(info.dpi_matches == 4);
	CHECK(info.dpi_aggregates == 2);

	cap_open(&out);
	CHECK(dtrace_go(dtp) == 0);
	/* tracing options are frozen now; dynamic ones are not */
	CHECK(dtrace_setopt(dtp, "bufsize", "1m") == -1 && dtrace_errno(dtp) == EDT_ACTIVE);
	CHECK(dtrace_setopt(dtp, "aggsortrev", NULL) == 0);
	CHECK(dtrace_setopt(dtp, "aggsortrev", "unset") == 0);

	CHECK(run(dtp, out.fp, &s) == DTRACE_WORKSTATUS_DONE);

	/* BEGIN (ID 1), the tick firing that called exit(), END (ID 2); the
	 * second BEGIN clause faulted and left no firing */
	CHECK(s.nprobes == 3);
	CHECK_STR(s.probes[0], "1 dtrace:::BEGIN");
	CHECK(strstr(s.probes[1], "profile:::tick-10ms") != NULL);
	CHECK_STR(s.probes[2], "2 dtrace:::END");

	/* trace(42) and END's trace(-1) came to the record callback */
	CHECK(s.ntraced == 2 && s.traced[0] == 42 && s.traced[1] == -1);
	CHECK(s.nstrings == 1);
	CHECK_STR(s.strings[0], "hello");
	CHECK(s.nexits == 1 && s.exitval == 3);
	CHECK(s.nprintf == 1);
	/* every firing ends with the NULL record */
	CHECK(s.nends == 3);

	/* the ERROR probe's fault, as DTrace words it */
	CHECK(s.nerrors == 1);
	CHECK(s.errfault == DTRACEFLT_BADADDR && s.erraction == 1 && s.erraddr == 0);
	CHECK(strncmp(s.errmsg,
	              "error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): invalid address (0x0) "
	              "in action #1 at DIF offset ",
	              strlen("error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): invalid address "
	                     "(0x0) in action #1 at DIF offset ")) == 0);
	CHECK(s.ndrops == 0);

	/* what the library formatted: printf() alone (quiet) */
	CHECK_STR(cap_text(&out), "7-x\n");

	/* the aggregations, walked by the client: sorted by variable, value, key */
	CHECK(dtrace_aggregate_walk_sorted(dtp, agg_cb, &a) == 0);
	CHECK(a.n == 3);
	CHECK_STR(a.lines[0], "c a 1 count");
	CHECK_STR(a.lines[1], "c b 2 count");
	CHECK_STR(a.lines[2], "s total 5 sum");

	/* and printed by the library exactly as DTrace prints them at the end */
	cap_open(&aggout);
	CHECK(dtrace_aggregate_print(dtp, aggout.fp, NULL) == 0);
	CHECK_STR(cap_text(&aggout),
	          "  a                                                                 1\n"
	          "  b                                                                 2\n"
	          "  total                                                             5\n");
	/* as in DTrace, printing them all does not mark them printed */
	cap_close(&aggout);
	cap_open(&aggout);
	CHECK(dtrace_aggregate_print(dtp, aggout.fp, NULL) == 0);
	CHECK(strstr(cap_text(&aggout), "total") != NULL);
	/* a client's own walk may clear values: count() reads 0 afterwards */
	dtrace_aggregate_clear(dtp);
	memset(&a, 0, sizeof(a));
	CHECK(dtrace_aggregate_walk_keysorted(dtp, agg_cb, &a) == 0);
	CHECK(a.n == 3);
	CHECK_STR(a.lines[0], "c a 0 count");
	CHECK_STR(a.lines[2], "s total 0 sum");
	cap_close(&aggout);
	cap_close(&out);

	dtrace_close(dtp);
}

/*
 * A probe callback that skips a firing hides its records; one that aborts
 * makes dtrace_work() fail with EDT_DIRABORT.
 */
static void
test_abort(void)
{
	dtrace_hdl_t *dtp;
	dtrace_prog_t *pgp;
	seen_t s;
	capture_t out;
	int err;

	memset(&s, 0, sizeof(s));
	s.skip_at = 1;
	s.abort_after = 3;
	if ((dtp = dtrace_open(DTRACE_VERSION, 0, &err)) == NULL) {
		CHECK(dtp != NULL);
		return;
	}
	CHECK(dtrace_setopt(dtp, "bufsize", "64k") == 0);
	CHECK(dtrace_setopt(dtp, "quiet", NULL) == 0);
	pgp =
	    dtrace_program_strcompile(dtp,
	                              "BEGIN { trace(1); } BEGIN { trace(2); } BEGIN { trace(3); }"
	                              " BEGIN { exit(0); }",
	                              DTRACE_PROBESPEC_NAME, 0, 0, NULL);
	CHECK(pgp != NULL);
	if (pgp == NULL) {
		dtrace_close(dtp);
		return;
	}
	CHECK(dtrace_program_exec(dtp, pgp, NULL) == 0);
	cap_open(&out);
	CHECK(dtrace_go(dtp) == 0);
	CHECK(run(dtp, out.fp, &s) == DTRACE_WORKSTATUS_ERROR);
	CHECK(dtrace_errno(dtp) == EDT_DIRABORT);
	/* the first firing skipped, the second consumed, the third aborted */
	CHECK(s.nprobes == 3 && s.ntraced == 1 && s.traced[0] == 2);
	CHECK(s.nends == 1);
	cap_close(&out);
	dtrace_close(dtp);
}

/* Two handles at once: each consumer sees only its own firings. */
static void
test_two_handles(void)
{
	dtrace_hdl_t *h1, *h2;
	dtrace_prog_t *p1, *p2;
	seen_t s1, s2;
	capture_t o1, o2;
	int err;

	memset(&s1, 0, sizeof(s1));
	memset(&s2, 0, sizeof(s2));
	h1 = dtrace_open(DTRACE_VERSION, 0, &err);
	h2 = dtrace_open(DTRACE_VERSION, 0, &err);
	CHECK(h1 != NULL && h2 != NULL);
	if (h1 == NULL || h2 == NULL) {
		dtrace_close(h1);
		dtrace_close(h2);
		return;
	}
	CHECK(dtrace_setopt(h1, "bufsize", "64k") == 0 && dtrace_setopt(h2, "bufsize", "64k") == 0);
	p1 = dtrace_program_strcompile(h1, "BEGIN { trace(111); exit(0); }", DTRACE_PROBESPEC_NAME,
	                               0, 0, NULL);
	p2 = dtrace_program_strcompile(h2, "BEGIN { trace(222); exit(5); }", DTRACE_PROBESPEC_NAME,
	                               0, 0, NULL);
	CHECK(p1 != NULL && p2 != NULL);
	if (p1 != NULL && p2 != NULL) {
		CHECK(dtrace_program_exec(h1, p1, NULL) == 0);
		CHECK(dtrace_program_exec(h2, p2, NULL) == 0);
		cap_open(&o1);
		cap_open(&o2);
		CHECK(dtrace_go(h1) == 0);
		CHECK(dtrace_go(h2) == 0);
		CHECK(run(h1, o1.fp, &s1) == DTRACE_WORKSTATUS_DONE);
		CHECK(run(h2, o2.fp, &s2) == DTRACE_WORKSTATUS_DONE);
		CHECK(s1.ntraced == 1 && s1.traced[0] == 111 && s1.exitval == 0);
		CHECK(s2.ntraced == 1 && s2.traced[0] == 222 && s2.exitval == 5);
		cap_close(&o1);
		cap_close(&o2);
	}
	dtrace_close(h1);
	dtrace_close(h2);
}

/* The interface's refusals. */
static void
test_refusals(void)
{
	dtrace_hdl_t *dtp;
	dtrace_prog_t *pgp;
	dtrace_proginfo_t info;
	int err = 0;

	CHECK(dtrace_open(DTRACE_VERSION + 1, 0, &err) == NULL && err == EDT_VERSION);
	CHECK_STR(dtrace_errmsg(NULL, EDT_VERSION), "Client requested version newer than library");

	if ((dtp = dtrace_open(DTRACE_VERSION, 0, &err)) == NULL) {
		CHECK(dtp != NULL);
		return;
	}
	/* work before go is an error, not a crash */
	CHECK(dtrace_stop(dtp) == -1);
	/* a description matching nothing is refused unless zdefs */
	CHECK(dtrace_program_strcompile(dtp, "nosuch:::probe { }", DTRACE_PROBESPEC_NAME, 0, 0,
	                                NULL) == NULL);
	pgp = dtrace_program_strcompile(dtp, "nosuch:::probe { }", DTRACE_PROBESPEC_NAME,
	                                DTRACE_C_ZDEFS, 0, NULL);
	CHECK(pgp != NULL);
	if (pgp != NULL) {
		memset(&info, 0, sizeof(info));
		CHECK(dtrace_program_exec(dtp, pgp, &info) == 0 && info.dpi_matches == 0);
	}
	dtrace_close(dtp);
}

int
main(void)
{
	test_whole_run();
	test_abort();
	test_two_handles();
	test_refusals();
	if (failures != 0) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	return 0;
}
