/*
 * dt_testutil.h: helpers for the consumer's unit tests.  They build
 * synthetic records and descriptions the way the core lays them out,
 * format them through the library into memory, and compare the text with
 * DTrace's, byte for byte, printing both on a mismatch.
 */
#ifndef DT_TESTUTIL_H
#define DT_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_impl.h"
#include "dt_printf.h"

static int dt_test_failures;

#define DT_CHECK(cond)                                                                             \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			dt_test_failures++;                                                        \
		}                                                                                  \
	} while (0)

static void
dt_show(const char *label, const char *s)
{
	fprintf(stderr, "  %s (%zu bytes):\n", label, strlen(s));
	for (; *s != '\0'; s++) {
		if (*s == '\n')
			fputs("$\n", stderr);
		else
			fputc(*s, stderr);
	}
	fputs("<end>\n", stderr);
}

#define DT_EXPECT_STR(got, want)                                                                   \
	do {                                                                                       \
		const char *g_ = (got), *w_ = (want);                                              \
		if (strcmp(g_, w_) != 0) {                                                         \
			fprintf(stderr, "%s:%d: output differs\n", __FILE__, __LINE__);            \
			dt_show("expected", w_);                                                   \
			dt_show("got", g_);                                                        \
			dt_test_failures++;                                                        \
		}                                                                                  \
	} while (0)

/* An in-memory stream that collects what the library prints. */
typedef struct dt_capture {
	FILE *fp;
	char *buf;
	size_t len;
} dt_capture_t;

static void
dt_capture_open(dt_capture_t *c)
{
	c->buf = NULL;
	c->len = 0;
	c->fp = open_memstream(&c->buf, &c->len);
}

/* Close and return the text (caller frees). */
static char *
dt_capture_close(dt_capture_t *c)
{
	fclose(c->fp);
	return c->buf;
}

/* A record layout being built: records at 8-aligned offsets after a header. */
typedef struct dt_layout {
	dtrace_recdesc_t recs[32];
	int nrecs;
	uint32_t size;
} dt_layout_t;

static void
dt_layout_init(dt_layout_t *l, uint32_t hdrsize)
{
	memset(l, 0, sizeof(*l));
	l->size = hdrsize;
}

static int
dt_layout_add(dt_layout_t *l, dtrace_actkind_t act, uint32_t size, uint16_t align, uint64_t arg)
{
	dtrace_recdesc_t *r = &l->recs[l->nrecs];

	if (align > 1)
		l->size = (l->size + align - 1) & ~(uint32_t)(align - 1);
	r->dtrd_action = act;
	r->dtrd_size = size;
	r->dtrd_offset = l->size;
	r->dtrd_alignment = align;
	r->dtrd_arg = arg;
	l->size += size;
	return l->nrecs++;
}

static uint32_t
dt_layout_total(const dt_layout_t *l)
{
	return (l->size + 7) & ~7u;
}

/* Register an enabled probe with the given records under `epid'. */
static void
dt_test_epid(dtrace_hdl_t *dtp, dtrace_epid_t epid, dtrace_id_t probe, const char *prov,
	     const char *mod, const char *func, const char *name, const dt_layout_t *l)
{
	size_t size = sizeof(dtrace_eprobedesc_t) + sizeof(dtrace_recdesc_t) * (size_t)(l->nrecs > 0 ? l->nrecs - 1 : 0);
	dtrace_eprobedesc_t *epd = calloc(1, size);
	dtrace_probedesc_t pd;

	epd->dtepd_epid = epid;
	epd->dtepd_probeid = probe;
	epd->dtepd_size = dt_layout_total(l);
	epd->dtepd_nrecs = l->nrecs;
	memcpy(epd->dtepd_rec, l->recs, sizeof(dtrace_recdesc_t) * (size_t)l->nrecs);
	memset(&pd, 0, sizeof(pd));
	pd.dtpd_id = probe;
	snprintf(pd.dtpd_provider, sizeof(pd.dtpd_provider), "%s", prov);
	snprintf(pd.dtpd_mod, sizeof(pd.dtpd_mod), "%s", mod);
	snprintf(pd.dtpd_func, sizeof(pd.dtpd_func), "%s", func);
	snprintf(pd.dtpd_name, sizeof(pd.dtpd_name), "%s", name);
	DT_CHECK(dt_epid_add(dtp, epid, epd, &pd) == 0);
	free(epd);
}

/* Register aggregation `aggid' with the given layout (rec 0 = the id record). */
static void
dt_test_aggid(dtrace_hdl_t *dtp, dtrace_aggid_t aggid, dtrace_epid_t epid, const char *name,
	      const dt_layout_t *l)
{
	size_t size = sizeof(dtrace_aggdesc_t) + sizeof(dtrace_recdesc_t) * (size_t)(l->nrecs - 1);
	dtrace_aggdesc_t *agd = calloc(1, size);

	agd->dtagd_name = (char *)name;
	agd->dtagd_id = aggid;
	agd->dtagd_epid = epid;
	agd->dtagd_size = dt_layout_total(l);
	agd->dtagd_nrecs = l->nrecs;
	memcpy(agd->dtagd_rec, l->recs, sizeof(dtrace_recdesc_t) * (size_t)l->nrecs);
	DT_CHECK(dt_aggid_add(dtp, agd) == 0);
	free(agd);
}

/* A handle with no core, all options unset. */
static dtrace_hdl_t *
dt_test_handle(void)
{
	dtrace_hdl_t *dtp = dt_handle_create(DTRACE_VERSION, DTRACE_O_NODEV);

	if (dtp == NULL) {
		fprintf(stderr, "cannot create a handle\n");
		exit(2);
	}
	return dtp;
}

static int
dt_test_result(const char *name)
{
	if (dt_test_failures != 0) {
		fprintf(stderr, "%s: %d failure(s)\n", name, dt_test_failures);
		return 1;
	}
	printf("%s: ok\n", name);
	return 0;
}

#endif /* DT_TESTUTIL_H */
