/*
 * fuzz/fuzz_consume.c: libFuzzer target for the consumer's parsing of
 * buffer snapshots.
 *
 * On the Linux host every traced process can write the buffers a snapshot
 * copies, so the bytes libdtrace parses are whatever a hostile target made
 * them.  Each input here is such a snapshot set: two CPUs' principal buffer
 * data and one aggregation buffer, consumed through the library's public
 * path (dtrace_consume, dtrace_aggregate_snap, dtrace_aggregate_print) with
 * a fixed set of enabled probes and aggregations whose records cover every
 * kind the library formats: trace() of every size and strings, printf()
 * with every common conversion, stacks and symbols, tracemem() with a
 * dynamic size, the library actions (clear, normalize, trunc, setopt),
 * printa(), the ERROR enabling, and aggregations of every function.  The
 * descriptions are what the core says (trusted); only the data is
 * random.  Consuming may fail, with the library's error set; it must never
 * crash, hang, leak or trip a sanitizer.
 *
 * Input: byte 0 selects options (bit 0 quiet, 1 flowindent, 2 aggsortkey,
 * 3 aggsortrev, 4 aggpercpu, 5 consume as if stopped, 6 an error handler);
 * bytes 1-2 and 3-4 are the lengths of CPU 0's and CPU 1's principal data
 * (little-endian, cut to what is there); byte 5 times 4 is CPU 0's oldest
 * offset (a wrapped ring); the rest is the aggregation snapshot.
 *
 * A small fake backend stands in for the core: BUFSNAP and AGGSNAP hand out
 * the input's parts, every description is already cached, so EPROBE, AGGDESC
 * and FORMAT for anything else fail as the core fails them for an unknown
 * id.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_impl.h"
#include "dt_printf.h"

#define FZ_BUFSIZE 4096

static struct {
	const uint8_t *part[3]; /* CPU 0, CPU 1, aggregation */
	size_t len[3];
	size_t oldest;
} fz;

static int
fz_ctl(void *state, dtrace_ctl_t cmd, void *arg, int *rv)
{
	dtrace_bufdesc_t *d = arg;
	int which;

	(void)state;
	(void)rv;
	switch (cmd) {
	case DTRACE_CTL_BUFSNAP:
	case DTRACE_CTL_AGGSNAP:
		if (d->dtbd_cpu > 1)
			return EINVAL;
		which = cmd == DTRACE_CTL_AGGSNAP ? (d->dtbd_cpu == 0 ? 2 : -1) : (int)d->dtbd_cpu;
		if (which < 0) {
			d->dtbd_size = 0;
			return 0;
		}
		/* what the core guarantees: never more than the room */
		d->dtbd_size = fz.len[which] < d->dtbd_size ? fz.len[which] : d->dtbd_size;
		memcpy(d->dtbd_data, fz.part[which], d->dtbd_size);
		d->dtbd_oldest = which == 0 && fz.oldest <= d->dtbd_size ? fz.oldest : 0;
		d->dtbd_drops = 0;
		d->dtbd_errors = 0;
		d->dtbd_timestamp = UINT64_MAX - 1;
		fz.len[which] = 0; /* each snapshot takes everything */
		return 0;
	case DTRACE_CTL_STATUS:
		memset(arg, 0, sizeof(dtrace_status_t));
		return 0;
	default:
		return EINVAL; /* an id the core does not know */
	}
}

static int
fz_ncpus(void *state)
{
	(void)state;
	return 2;
}

static void
fz_close(void *state)
{
	(void)state;
}

static const dt_backend_t fz_backend = {
	.name = "fuzz",
	.ctl = fz_ctl,
	.ncpus = fz_ncpus,
	.close = fz_close,
};

/* --- The enabled probes and aggregations --------------------------------- */

typedef struct fz_layout {
	dtrace_recdesc_t recs[16];
	int nrecs;
	uint32_t size;
} fz_layout_t;

static void
fz_init(fz_layout_t *l, uint32_t hdr)
{
	memset(l, 0, sizeof(*l));
	l->size = hdr;
}

static dtrace_recdesc_t *
fz_add(fz_layout_t *l, dtrace_actkind_t act, uint32_t size, uint16_t align, uint64_t arg)
{
	dtrace_recdesc_t *r = &l->recs[l->nrecs++];

	l->size = (l->size + align - 1) & ~(uint32_t)(align - 1);
	r->dtrd_action = act;
	r->dtrd_size = size;
	r->dtrd_offset = l->size;
	r->dtrd_alignment = align;
	r->dtrd_arg = arg;
	l->size += size;
	return r;
}

static void
fz_epid(dtrace_hdl_t *dtp, dtrace_epid_t epid, const char *name, uint64_t uarg,
	const fz_layout_t *l)
{
	struct {
		dtrace_eprobedesc_t e;
		dtrace_recdesc_t more[16];
	} d;
	dtrace_probedesc_t pd;

	memset(&d, 0, sizeof(d));
	d.e.dtepd_epid = epid;
	d.e.dtepd_probeid = epid + 100;
	d.e.dtepd_uarg = uarg;
	d.e.dtepd_size = (l->size + 7) & ~7u;
	d.e.dtepd_nrecs = l->nrecs;
	memcpy(d.e.dtepd_rec, l->recs, sizeof(l->recs[0]) * (size_t)l->nrecs);
	memset(&pd, 0, sizeof(pd));
	pd.dtpd_id = epid + 100;
	(void)snprintf(pd.dtpd_provider, sizeof(pd.dtpd_provider), "%s",
		       strcmp(name, "ERROR") == 0 ? "dtrace" : "fuzz");
	(void)snprintf(pd.dtpd_func, sizeof(pd.dtpd_func), "func");
	(void)snprintf(pd.dtpd_name, sizeof(pd.dtpd_name), "%s", name);
	(void)dt_epid_add(dtp, epid, &d.e, &pd);
}

/* An aggregation: the id record, the keys given, then the value. */
static void
fz_agg(dtrace_hdl_t *dtp, dtrace_aggid_t id, const uint32_t *keys, int nkeys,
       const dtrace_actkind_t *keykinds, dtrace_actkind_t fn, uint32_t vsize, uint64_t arg)
{
	struct {
		dtrace_aggdesc_t a;
		dtrace_recdesc_t more[16];
	} d;
	fz_layout_t l;

	fz_init(&l, sizeof(dtrace_aggid_t));
	fz_add(&l, DTRACEACT_DIFEXPR, sizeof(dtrace_aggvarid_t), 8, 0);
	for (int i = 0; i < nkeys; i++)
		fz_add(&l, keykinds != NULL ? keykinds[i] : DTRACEACT_DIFEXPR, keys[i],
		       keys[i] >= 8 ? 8 : (uint16_t)keys[i], keykinds != NULL ? 5 : 0);
	fz_add(&l, fn, vsize, 8, arg);
	memset(&d, 0, sizeof(d));
	d.a.dtagd_id = id;
	d.a.dtagd_epid = 1;
	d.a.dtagd_size = (l.size + 7) & ~7u;
	d.a.dtagd_nrecs = l.nrecs;
	d.a.dtagd_varid = DTRACE_AGGVARIDNONE;
	memcpy(d.a.dtagd_rec, l.recs, sizeof(l.recs[0]) * (size_t)l.nrecs);
	(void)dt_aggid_add(dtp, &d.a);
}

static void
fz_program(dtrace_hdl_t *dtp)
{
	static const uint32_t k_int_str[] = {8, 16}, k_i32[] = {4}, k_stack[] = {40}, k_sym[] = {8};
	static const dtrace_actkind_t kk_stack[] = {DTRACEACT_STACK}, kk_usym[] = {DTRACEACT_USYM};
	fz_layout_t l;
	dtrace_recdesc_t *r;

	/* 1: trace() of every size, and strings */
	fz_init(&l, sizeof(dtrace_rechdr_t));
	fz_add(&l, DTRACEACT_DIFEXPR, 8, 8, 0);
	fz_add(&l, DTRACEACT_DIFEXPR, 32, 1, 0);
	fz_add(&l, DTRACEACT_DIFEXPR, 4, 4, 0);
	fz_add(&l, DTRACEACT_DIFEXPR, 2, 2, 0);
	fz_add(&l, DTRACEACT_DIFEXPR, 1, 1, 0);
	fz_add(&l, DTRACEACT_DIFEXPR, 20, 1, 0);
	fz_epid(dtp, 1, "entry", 1, &l);

	/* 2: printf() with strings, integers, characters, pointers, floats */
	(void)dt_format_add(dtp, 1, "%s %d %u %x %c %p %5.2s %-10s %ws %e\n", 0);
	fz_init(&l, sizeof(dtrace_rechdr_t));
	fz_add(&l, DTRACEACT_PRINTF, 32, 1, 0)->dtrd_format = 1;
	fz_add(&l, DTRACEACT_PRINTF, 4, 4, 0)->dtrd_format = 1;
	fz_add(&l, DTRACEACT_PRINTF, 8, 8, 0)->dtrd_format = 1;
	fz_add(&l, DTRACEACT_PRINTF, 8, 8, 0)->dtrd_format = 1;
	fz_add(&l, DTRACEACT_PRINTF, 1, 1, 0)->dtrd_format = 1;
	fz_add(&l, DTRACEACT_PRINTF, 8, 8, 0)->dtrd_format = 1;
	fz_add(&l, DTRACEACT_PRINTF, 16, 1, 0)->dtrd_format = 1;
	fz_add(&l, DTRACEACT_PRINTF, 16, 1, 0)->dtrd_format = 1;
	fz_add(&l, DTRACEACT_PRINTF, 14, 1, 0)->dtrd_format = 1;
	fz_add(&l, DTRACEACT_PRINTF, 8, 8, 0)->dtrd_format = 1;
	for (int i = 0; i < l.nrecs; i++)
		l.recs[i].dtrd_uarg = 2;
	fz_epid(dtp, 2, "return", 2, &l);

	/* 3: stack(5), ustack(4) with a 32-byte string table, sym, usym, mod, umod */
	fz_init(&l, sizeof(dtrace_rechdr_t));
	fz_add(&l, DTRACEACT_STACK, 40, 8, 5);
	fz_add(&l, DTRACEACT_USTACK, 5 * 8 + 32, 8, DTRACE_USTACK_ARG(4, 32));
	fz_add(&l, DTRACEACT_SYM, 8, 8, 0);
	fz_add(&l, DTRACEACT_USYM, 16, 8, 0);
	fz_add(&l, DTRACEACT_MOD, 8, 8, 0);
	fz_add(&l, DTRACEACT_UMOD, 16, 8, 0);
	fz_epid(dtp, 3, "stacks", 3, &l);

	/* 4: tracemem() with a dynamic size */
	fz_init(&l, sizeof(dtrace_rechdr_t));
	fz_add(&l, DTRACEACT_TRACEMEM_DYNSIZE, 8, 8, 0);
	fz_add(&l, DTRACEACT_TRACEMEM, 48, 1, 48);
	fz_epid(dtp, 4, "mem", 4, &l);

	/* 5: clear(@a), normalize(@b, n), trunc(@c, n), setopt("quiet", value) */
	fz_init(&l, sizeof(dtrace_rechdr_t));
	fz_add(&l, DTRACEACT_LIBACT, 8, 8, DT_ACT_CLEAR);
	fz_add(&l, DTRACEACT_LIBACT, 8, 8, DT_ACT_NORMALIZE);
	fz_add(&l, DTRACEACT_LIBACT, 8, 8, DT_ACT_NORMALIZE);
	fz_add(&l, DTRACEACT_LIBACT, 8, 8, DT_ACT_TRUNC);
	fz_add(&l, DTRACEACT_LIBACT, 4, 4, DT_ACT_TRUNC);
	fz_add(&l, DTRACEACT_LIBACT, 8, 8, DT_ACT_DENORMALIZE);
	fz_epid(dtp, 5, "libact", 5, &l);

	/* 6: printa() of two aggregations, with a format, and without one */
	(void)dt_format_add(dtp, 2, "%d %s %@d %@d\n", 1);
	fz_init(&l, sizeof(dtrace_rechdr_t));
	r = fz_add(&l, DTRACEACT_PRINTA, 8, 8, 0);
	r->dtrd_format = 2;
	r->dtrd_uarg = 6;
	r = fz_add(&l, DTRACEACT_PRINTA, 8, 8, 0);
	r->dtrd_format = 2;
	r->dtrd_uarg = 6;
	r = fz_add(&l, DTRACEACT_PRINTA, 8, 8, 0);
	r->dtrd_uarg = 7;
	fz_epid(dtp, 6, "printa", 6, &l);

	/* 7: the ERROR enabling: epid, action, offset, fault, address */
	fz_init(&l, sizeof(dtrace_rechdr_t));
	for (int i = 0; i < 5; i++)
		fz_add(&l, DTRACEACT_DIFEXPR, 8, 8, 0);
	fz_epid(dtp, 7, "ERROR", 99, &l);
	dtp->dt_erruarg = 99;

	/* 8: an empty firing, exit() */
	fz_init(&l, sizeof(dtrace_rechdr_t));
	fz_epid(dtp, 8, "empty", 8, &l);
	fz_init(&l, sizeof(dtrace_rechdr_t));
	fz_add(&l, DTRACEACT_EXIT, 4, 4, 0);
	fz_epid(dtp, 9, "exit", 9, &l);

	/* aggregations of every function */
	fz_agg(dtp, 1, k_int_str, 2, NULL, DTRACEAGG_COUNT, 8, 0);
	fz_agg(dtp, 2, k_i32, 1, NULL, DTRACEAGG_AVG, 16, 0);
	fz_agg(dtp, 3, NULL, 0, NULL, DTRACEAGG_STDDEV, 32, 0);
	fz_agg(dtp, 4, NULL, 0, NULL, DTRACEAGG_QUANTIZE, DTRACE_QUANTIZE_NBUCKETS * 8, 0);
	fz_agg(dtp, 5, k_i32, 1, NULL, DTRACEAGG_LQUANTIZE, 8 * (1 + 10 + 2),
	       DTRACE_LQUANTIZE_ARG(10, 10, 0));
	fz_agg(dtp, 6, NULL, 0, NULL, DTRACEAGG_LLQUANTIZE, 8 * 32,
	       DTRACE_LLQUANTIZE_ARG(10, 0, 6, 20));
	fz_agg(dtp, 7, k_stack, 1, kk_stack, DTRACEAGG_SUM, 8, 0);
	fz_agg(dtp, 8, k_sym, 1, kk_usym, DTRACEAGG_MIN, 8, 0);
	fz_agg(dtp, 9, k_int_str, 2, NULL, DTRACEAGG_MAX, 8, 0);
}

static int
fz_errhandler(const dtrace_errdata_t *err, void *arg)
{
	(void)err;
	(void)arg;
	return DTRACE_HANDLE_OK;
}

static FILE *fz_out;

static void
fz_say(dtrace_hdl_t *dtp, const char *what)
{
	if (fz_out == stdout)
		printf("[%s: %s]\n", what, dtrace_errmsg(dtp, dtrace_errno(dtp)));
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	dt_print_aggdata_t pd;
	dtrace_hdl_t *dtp;
	uint8_t flags;
	size_t rest;

	if (size < 6)
		return 0;
	/* FUZZ_CONSUME_SHOW=1 prints what the library made of an input */
	if (fz_out == NULL) {
		fz_out = getenv("FUZZ_CONSUME_SHOW") != NULL ? stdout : fopen("/dev/null", "w");
		if (fz_out == NULL)
			abort();
	}
	flags = in[0];
	rest = size - 6;
	fz.part[0] = in + 6;
	fz.len[0] = ((size_t)in[1] | (size_t)in[2] << 8) % (rest + 1);
	rest -= fz.len[0];
	fz.part[1] = fz.part[0] + fz.len[0];
	fz.len[1] = ((size_t)in[3] | (size_t)in[4] << 8) % (rest + 1);
	rest -= fz.len[1];
	fz.part[2] = fz.part[1] + fz.len[1];
	fz.len[2] = rest;
	fz.oldest = (size_t)in[5] * 4;

	if ((dtp = dt_handle_create(DTRACE_VERSION, DTRACE_O_NODEV)) == NULL)
		abort();
	fz_program(dtp);
	dtp->dt_backend = &fz_backend;
	dtp->dt_ncpu = 2;
	dtp->dt_active = 1;
	dtp->dt_stopped = (flags & 0x20) != 0;
	dtp->dt_options[DTRACEOPT_BUFSIZE] = FZ_BUFSIZE;
	dtp->dt_options[DTRACEOPT_AGGSIZE] = FZ_BUFSIZE;
	dtp->dt_options[DTRACEOPT_SWITCHRATE] = 0;
	dtp->dt_options[DTRACEOPT_AGGRATE] = 0;
	if (flags & 0x01)
		(void)dtrace_setopt(dtp, "quiet", NULL);
	if (flags & 0x02)
		(void)dtrace_setopt(dtp, "flowindent", NULL);
	if (flags & 0x04)
		(void)dtrace_setopt(dtp, "aggsortkey", NULL);
	if (flags & 0x08)
		(void)dtrace_setopt(dtp, "aggsortrev", NULL);
	if (flags & 0x10)
		dtp->dt_aggregate.dtat_flags |= DTRACE_A_PERCPU;
	if (flags & 0x40)
		(void)dtrace_handle_err(dtp, fz_errhandler, NULL);
	if (dt_aggregate_go(dtp) != 0)
		abort();
	memset(&pd, 0, sizeof(pd));

	/* each step may fail with the library's error; none may crash */
	if (dtrace_aggregate_snap(dtp) != 0)
		fz_say(dtp, "aggregate_snap");
	if (dtrace_consume(dtp, fz_out, NULL, NULL, NULL) != 0)
		fz_say(dtp, "consume");
	dtp->dt_stopped = 1;
	if (dtrace_consume(dtp, fz_out, NULL, NULL, NULL) != 0)
		fz_say(dtp, "consume after stop");
	if (dtrace_aggregate_print(dtp, fz_out, NULL) != 0)
		fz_say(dtp, "aggregate_print");
	pd.dtpa_dtp = dtp;
	pd.dtpa_fp = fz_out;
	(void)dtrace_aggregate_walk_keyrevsorted(dtp, dt_print_agg, &pd);

	dtp->dt_backend = NULL;
	dt_handle_destroy(dtp);
	return 0;
}
