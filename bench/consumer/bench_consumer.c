/*
 * bench_consumer: the consumer's throughput on synthetic records.
 *
 * 1. trace(timestamp) firings (a 12-byte header and one 8-byte record),
 *    printed as the dtrace command prints them: "CPU ID FUNCTION:NAME"
 *    prefix, the value, a newline.
 * 2. printf("%d %s\n", int, string) firings through the printf engine.
 * 3. A 1,000,000-key @[arg0] = count() snapshot folded into the handle,
 *    then sorted and printed.
 * Everything is written to /dev/null; the figures go to standard output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dt_impl.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static FILE *g_null;

/* The dtrace command's per-firing prefix and newline. */
static int
chew(const dtrace_probedata_t *data, void *arg)
{
	const dtrace_probedesc_t *pd = data->dtpda_pdesc;
	char name[DTRACE_FUNCNAMELEN + DTRACE_NAMELEN + 2];

	(void)arg;
	snprintf(name, sizeof(name), "%s:%s", pd->dtpd_func, pd->dtpd_name);
	fprintf(g_null, "%3d %6d %32s ", data->dtpda_cpu, pd->dtpd_id, name);
	return DTRACE_CONSUME_THIS;
}

static int
chewrec(const dtrace_probedata_t *data, const dtrace_recdesc_t *rec, void *arg)
{
	(void)data;
	(void)arg;
	if (rec == NULL) {
		fputc('\n', g_null);
		return DTRACE_CONSUME_NEXT;
	}
	return DTRACE_CONSUME_THIS;
}

static void
add_epid(dtrace_hdl_t *dtp, dtrace_epid_t epid, const dtrace_recdesc_t *recs, int nrecs,
	 uint32_t size, const char *name)
{
	dtrace_eprobedesc_t *epd = calloc(1, sizeof(*epd) + sizeof(*recs) * (size_t)nrecs);
	dtrace_probedesc_t pd;

	epd->dtepd_epid = epid;
	epd->dtepd_probeid = 100 + epid;
	epd->dtepd_size = size;
	epd->dtepd_nrecs = nrecs;
	memcpy(epd->dtepd_rec, recs, sizeof(*recs) * (size_t)nrecs);
	memset(&pd, 0, sizeof(pd));
	pd.dtpd_id = 100 + epid;
	strcpy(pd.dtpd_provider, "profile");
	strcpy(pd.dtpd_name, name);
	if (dt_epid_add(dtp, epid, epd, &pd) != 0) {
		fprintf(stderr, "dt_epid_add failed\n");
		exit(1);
	}
	free(epd);
}

static void
bench_trace(size_t n)
{
	dtrace_hdl_t *dtp = dt_handle_create(DTRACE_VERSION, DTRACE_O_NODEV);
	dtrace_recdesc_t rec;
	size_t i, size = n * 24;
	char *buf = aligned_alloc(8, size);
	double t0, t1;

	memset(&rec, 0, sizeof(rec));
	rec.dtrd_action = DTRACEACT_DIFEXPR;
	rec.dtrd_size = 8;
	rec.dtrd_offset = 16;
	rec.dtrd_alignment = 8;
	add_epid(dtp, 1, &rec, 1, 24, "profile-997");
	for (i = 0; i < n; i++) {
		dtrace_rechdr_t *h = (dtrace_rechdr_t *)(buf + i * 24);

		h->dtrh_epid = 1;
		DTRACE_RECORD_STORE_TIMESTAMP(h, (uint64_t)i * 1000);
		*(uint64_t *)(buf + i * 24 + 16) = 123456789012ULL + i;
	}
	t0 = now();
	if (dt_consume_records(dtp, g_null, 0, buf, size, chew, chewrec, NULL) != 0) {
		fprintf(stderr, "consume failed: %s\n", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		exit(1);
	}
	fflush(g_null);
	t1 = now();
	printf("trace(timestamp), default output: %zu records in %.3f s: %.0f records/s\n", n,
	       t1 - t0, (double)n / (t1 - t0));
	free(buf);
	dt_handle_destroy(dtp);
}

static void
bench_printf(size_t n)
{
	dtrace_hdl_t *dtp = dt_handle_create(DTRACE_VERSION, DTRACE_O_NODEV);
	dtrace_recdesc_t recs[2];
	size_t i, rsize = 16 + 8 + 32, size;
	char *buf;
	double t0, t1;

	rsize = (rsize + 7) & ~(size_t)7;
	size = n * rsize;
	buf = aligned_alloc(8, size);
	memset(recs, 0, sizeof(recs));
	recs[0].dtrd_action = recs[1].dtrd_action = DTRACEACT_PRINTF;
	recs[0].dtrd_size = 8;
	recs[0].dtrd_offset = 16;
	recs[0].dtrd_alignment = 8;
	recs[1].dtrd_size = 32;
	recs[1].dtrd_offset = 24;
	recs[1].dtrd_alignment = 1;
	recs[0].dtrd_format = recs[1].dtrd_format = 1;
	recs[0].dtrd_uarg = recs[1].dtrd_uarg = 7;
	add_epid(dtp, 1, recs, 2, (uint32_t)rsize, "tick-1ms");
	if (dt_format_add(dtp, 1, "%d %s\n", 0) != 0)
		exit(1);
	memset(buf, 0, size);
	for (i = 0; i < n; i++) {
		char *r = buf + i * rsize;

		((dtrace_rechdr_t *)r)->dtrh_epid = 1;
		*(int64_t *)(r + 16) = (int64_t)i;
		strcpy(r + 24, "execname");
	}
	dtrace_setopt(dtp, "quiet", NULL);
	t0 = now();
	if (dt_consume_records(dtp, g_null, 0, buf, size, NULL, NULL, NULL) != 0)
		exit(1);
	fflush(g_null);
	t1 = now();
	printf("printf(\"%%d %%s\\n\"), quiet: %zu records in %.3f s: %.0f records/s\n", n, t1 - t0,
	       (double)n / (t1 - t0));
	free(buf);
	dt_handle_destroy(dtp);
}

static void
bench_aggregation(size_t nkeys)
{
	dtrace_hdl_t *dtp = dt_handle_create(DTRACE_VERSION, DTRACE_O_NODEV);
	size_t asize = sizeof(dtrace_aggdesc_t) + 2 * sizeof(dtrace_recdesc_t);
	dtrace_aggdesc_t *agd = calloc(1, asize);
	size_t i, rsize = 32, size = nkeys * rsize;
	char *buf = aligned_alloc(8, size);
	double t0, t1, t2;

	/* aggid, id record, one 64-bit key, the count */
	agd->dtagd_id = 1;
	agd->dtagd_epid = 1;
	agd->dtagd_size = (uint32_t)rsize;
	agd->dtagd_nrecs = 3;
	agd->dtagd_name = (char *)"";
	agd->dtagd_rec[0].dtrd_action = DTRACEACT_DIFEXPR;
	agd->dtagd_rec[0].dtrd_size = 8;
	agd->dtagd_rec[0].dtrd_offset = 8;
	agd->dtagd_rec[1] = agd->dtagd_rec[0];
	agd->dtagd_rec[1].dtrd_offset = 16;
	agd->dtagd_rec[2].dtrd_action = DTRACEAGG_COUNT;
	agd->dtagd_rec[2].dtrd_size = 8;
	agd->dtagd_rec[2].dtrd_offset = 24;
	if (dt_aggid_add(dtp, agd) != 0)
		exit(1);
	{
		dtrace_recdesc_t rec;

		memset(&rec, 0, sizeof(rec));
		add_epid(dtp, 1, &rec, 0, 16, "entry");
	}
	for (i = 0; i < nkeys; i++) {
		char *r = buf + i * rsize;

		*(uint32_t *)r = 1;
		*(uint32_t *)(r + 4) = 0;
		*(int64_t *)(r + 8) = 1;
		/* scattered keys, counts 1..100 */
		*(uint64_t *)(r + 16) = (uint64_t)i * 2654435761ULL;
		*(int64_t *)(r + 24) = (int64_t)(i % 100) + 1;
	}
	t0 = now();
	if (dt_aggregate_merge(dtp, 0, buf, size) != 0) {
		fprintf(stderr, "merge failed\n");
		exit(1);
	}
	/* a second CPU's snapshot of the same keys: every record merges */
	if (dt_aggregate_merge(dtp, 1, buf, size) != 0)
		exit(1);
	t1 = now();
	if (dtrace_aggregate_print(dtp, g_null, NULL) != 0)
		exit(1);
	fflush(g_null);
	t2 = now();
	printf("aggregation of %zu keys: merged 2 CPU snapshots in %.3f s (%.0f records/s); "
	       "sorted and printed in %.3f s\n",
	       nkeys, t1 - t0, 2.0 * (double)nkeys / (t1 - t0), t2 - t1);
	free(buf);
	free(agd);
	dt_handle_destroy(dtp);
}

int
main(int argc, char **argv)
{
	size_t nrec = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000000;
	size_t nkeys = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000000;

	if ((g_null = fopen("/dev/null", "w")) == NULL)
		return 1;
	bench_trace(nrec);
	bench_printf(nrec);
	bench_aggregation(nkeys);
	return 0;
}
