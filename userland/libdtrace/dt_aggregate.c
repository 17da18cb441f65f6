/*
 * dt_aggregate.c: the consumer's copy of every aggregation.
 *
 * Each CPU reduces its aggregations in probe context; an AGGSNAP hands the
 * consumer what accumulated on one CPU since its last snapshot.  The
 * consumer folds those records into one hash table keyed by (aggregation
 * id, key bytes), so a tuple seen on several CPUs or in several snapshots
 * ends as one entry whose value is the function applied across all of
 * them: sums for count/sum/avg/stddev/quantize, bucket sums for the linear
 * and log-linear quantizations (whose first word is their parameters),
 * minimum and maximum for min/max.
 *
 * Printing sorts as DTrace does: by aggregation variable, then by value,
 * then by key; aggsortkey puts the key first, aggsortkeypos chooses which
 * key member leads, aggsortrev reverses, aggsortpos picks which of several
 * printa() aggregations decides.  Integer keys compare as unsigned values
 * (and print as signed), as in DTrace.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "dt_impl.h"

/* --- Merging ------------------------------------------------------------- */

static dtrace_aggvarid_t
dt_aggregate_varid(dt_ahashent_t *h)
{
	dtrace_aggdesc_t *agg = h->dtahe_data.dtada_desc;

	if (agg->dtagd_varid != DTRACE_AGGVARIDNONE)
		return agg->dtagd_varid;
	/* the compiler's id record leads every key */
	if (agg->dtagd_nrecs > 0 && agg->dtagd_rec[0].dtrd_size == sizeof(dtrace_aggvarid_t))
		return *(const dtrace_aggvarid_t *)(h->dtahe_data.dtada_data +
		                                    agg->dtagd_rec[0].dtrd_offset);
	return DTRACE_AGGVARIDNONE;
}

/*
 * The key is every record but the value, the compiler's id record first, so
 * two clauses feeding one aggregation (two aggregation ids) share entries.
 */
static uint64_t
dt_aggregate_hash(const dtrace_aggdesc_t *agg, const char *addr)
{
	uint64_t h = (uint64_t)agg->dtagd_nrecs;
	int j;

	for (j = 0; j < agg->dtagd_nrecs - 1; j++) {
		const dtrace_recdesc_t *rec = &agg->dtagd_rec[j];

		h = XXH3_64bits_withSeed(addr + rec->dtrd_offset, rec->dtrd_size, h);
	}
	return h;
}

/* Same key: same layout and the same bytes in every key record. */
static int
dt_aggregate_keyeq(const dtrace_aggdesc_t *aagg, const char *a, const dtrace_aggdesc_t *bagg,
		   const char *b)
{
	int j;

	if (aagg != bagg) {
		if (aagg->dtagd_nrecs != bagg->dtagd_nrecs || aagg->dtagd_size != bagg->dtagd_size)
			return 0;
		for (j = 0; j < aagg->dtagd_nrecs; j++) {
			const dtrace_recdesc_t *ar = &aagg->dtagd_rec[j], *br = &bagg->dtagd_rec[j];

			if (ar->dtrd_offset != br->dtrd_offset || ar->dtrd_size != br->dtrd_size ||
			    ar->dtrd_action != br->dtrd_action)
				return 0;
		}
	}
	for (j = 0; j < aagg->dtagd_nrecs - 1; j++) {
		const dtrace_recdesc_t *rec = &aagg->dtagd_rec[j];

		if (memcmp(a + rec->dtrd_offset, b + rec->dtrd_offset, rec->dtrd_size) != 0)
			return 0;
	}
	return 1;
}

/* dst + src as 64-bit counters do it: wrapping, whatever a target wrote. */
static inline int64_t
dt_wrapadd(int64_t dst, int64_t src)
{
	return (int64_t)((uint64_t)dst + (uint64_t)src);
}

/* Fold `src' (one CPU's value) into `dst'. */
static void
dt_aggregate_apply(dtrace_actkind_t act, int64_t *dst, const int64_t *src, size_t size)
{
	size_t i, n = size / sizeof(int64_t);
	unsigned __int128 a, b;

	switch (act) {
	case DTRACEAGG_MIN:
		if (src[0] < dst[0])
			dst[0] = src[0];
		break;
	case DTRACEAGG_MAX:
		if (src[0] > dst[0])
			dst[0] = src[0];
		break;
	case DTRACEAGG_LQUANTIZE:
	case DTRACEAGG_LLQUANTIZE:
		/* word 0 holds the parameters */
		for (i = 1; i < n; i++)
			dst[i] = dt_wrapadd(dst[i], src[i]);
		break;
	case DTRACEAGG_STDDEV:
		/* count, sum, then a 128-bit sum of squares */
		dst[0] = dt_wrapadd(dst[0], src[0]);
		dst[1] = dt_wrapadd(dst[1], src[1]);
		a = ((unsigned __int128)(uint64_t)dst[3] << 64) | (uint64_t)dst[2];
		b = ((unsigned __int128)(uint64_t)src[3] << 64) | (uint64_t)src[2];
		a += b;
		dst[2] = (int64_t)(uint64_t)a;
		dst[3] = (int64_t)(uint64_t)(a >> 64);
		break;
	default:
		for (i = 0; i < n; i++)
			dst[i] = dt_wrapadd(dst[i], src[i]);
		break;
	}
}

static int
dt_aggregate_grow(dtrace_hdl_t *dtp)
{
	dt_aggregate_t *agp = &dtp->dt_aggregate;
	size_t nsize = agp->dtat_hashsize != 0 ? agp->dtat_hashsize * 2 : 1024;
	dt_ahashent_t **nhash = calloc(nsize, sizeof(*nhash));
	dt_ahashent_t *h;

	if (nhash == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (h = agp->dtat_all; h != NULL; h = h->dtahe_nextall) {
		size_t ndx = h->dtahe_hashval & (nsize - 1);

		h->dtahe_next = nhash[ndx];
		nhash[ndx] = h;
	}
	free(agp->dtat_hash);
	agp->dtat_hash = nhash;
	agp->dtat_hashsize = nsize;
	return 0;
}

static int
dt_aggregate_insert(dtrace_hdl_t *dtp, int cpu, dtrace_aggdesc_t *agg, const char *addr)
{
	dt_aggregate_t *agp = &dtp->dt_aggregate;
	const dtrace_recdesc_t *vrec = &agg->dtagd_rec[agg->dtagd_nrecs - 1];
	uint64_t hashval = dt_aggregate_hash(agg, addr);
	dtrace_aggdata_t *aggdata;
	dt_ahashent_t *h;
	int i;

	if (agp->dtat_hash == NULL || agp->dtat_nent >= agp->dtat_hashsize) {
		if (dt_aggregate_grow(dtp) != 0)
			return -1;
	}

	for (h = agp->dtat_hash[hashval & (agp->dtat_hashsize - 1)]; h != NULL; h = h->dtahe_next) {
		if (h->dtahe_hashval != hashval ||
		    !dt_aggregate_keyeq(h->dtahe_data.dtada_desc, h->dtahe_data.dtada_data, agg, addr))
			continue;
		aggdata = &h->dtahe_data;
		dt_aggregate_apply(vrec->dtrd_action,
		                   (int64_t *)(aggdata->dtada_data + vrec->dtrd_offset),
		                   (const int64_t *)(addr + vrec->dtrd_offset), vrec->dtrd_size);
		if (aggdata->dtada_percpu != NULL && cpu >= 0 && cpu < aggdata->dtada_ncpu)
			dt_aggregate_apply(vrec->dtrd_action,
			                   (int64_t *)aggdata->dtada_percpu[cpu],
			                   (const int64_t *)(addr + vrec->dtrd_offset), vrec->dtrd_size);
		return 0;
	}

	/* the entry and its data in one allocation: one cache miss, not two */
	if ((h = dt_alloc(dtp, sizeof(*h) + agg->dtagd_size)) == NULL)
		return -1;
	memset(h, 0, sizeof(*h));
	aggdata = &h->dtahe_data;
	aggdata->dtada_data = (char *)(h + 1);
	memcpy(aggdata->dtada_data, addr, agg->dtagd_size);
	aggdata->dtada_size = agg->dtagd_size;
	aggdata->dtada_desc = agg;
	aggdata->dtada_handle = dtp;
	aggdata->dtada_normal = 1;
	if (dt_epid_lookup(dtp, agg->dtagd_epid, &aggdata->dtada_edesc, &aggdata->dtada_pdesc) !=
	    0) {
		aggdata->dtada_edesc = NULL;
		aggdata->dtada_pdesc = NULL;
	}

	if (agp->dtat_flags & DTRACE_A_PERCPU) {
		aggdata->dtada_ncpu = dtp->dt_ncpu;
		if ((aggdata->dtada_percpu = dt_calloc(dtp, sizeof(char *) * (size_t)dtp->dt_ncpu)) ==
		    NULL)
			goto nomem;
		for (i = 0; i < dtp->dt_ncpu; i++) {
			if ((aggdata->dtada_percpu[i] = dt_calloc(dtp, vrec->dtrd_size)) == NULL)
				goto nomem;
			/* quantization parameters are part of every copy */
			if (vrec->dtrd_action == DTRACEAGG_LQUANTIZE ||
			    vrec->dtrd_action == DTRACEAGG_LLQUANTIZE)
				memcpy(aggdata->dtada_percpu[i], addr + vrec->dtrd_offset,
				       sizeof(uint64_t));
			if (i == cpu)
				memcpy(aggdata->dtada_percpu[i], addr + vrec->dtrd_offset,
				       vrec->dtrd_size);
		}
	}

	h->dtahe_hashval = hashval;
	h->dtahe_varid = dt_aggregate_varid(h);
	h->dtahe_next = agp->dtat_hash[hashval & (agp->dtat_hashsize - 1)];
	agp->dtat_hash[hashval & (agp->dtat_hashsize - 1)] = h;
	h->dtahe_nextall = agp->dtat_all;
	if (agp->dtat_all != NULL)
		agp->dtat_all->dtahe_prevall = h;
	agp->dtat_all = h;
	agp->dtat_nent++;
	return 0;

nomem:
	if (aggdata->dtada_percpu != NULL) {
		for (i = 0; i < aggdata->dtada_ncpu; i++)
			free(aggdata->dtada_percpu[i]);
		free(aggdata->dtada_percpu);
	}
	free(h);
	return -1;
}

/*
 * A value the rest of the library may take at its word: an lquantize()
 * value's parameter word must describe as many buckets as the value holds
 * (sorting and printing index by it).
 */
static int
dt_aggregate_value_ok(const dtrace_recdesc_t *vrec, const char *addr)
{
	uint64_t arg;

	if (vrec->dtrd_action != DTRACEAGG_LQUANTIZE)
		return 1;
	if (vrec->dtrd_size < sizeof(uint64_t))
		return 0;
	memcpy(&arg, addr + vrec->dtrd_offset, sizeof(arg));
	return vrec->dtrd_size == sizeof(uint64_t) * ((size_t)DTRACE_LQUANTIZE_LEVELS(arg) + 3);
}

/*
 * Fold one CPU's aggregation snapshot buf[0..size) into the handle.  The
 * bytes are what probe context wrote, on the Linux host maybe a hostile
 * traced process: each entry must name an aggregation the core knows, start
 * 8-aligned as the core lays entries out, fit, and carry a value of a shape
 * its description allows; else the merge stops with an error.
 */
int
dt_aggregate_merge(dtrace_hdl_t *dtp, int cpu, const char *buf, size_t size)
{
	size_t offs = 0;

	while (offs + sizeof(dtrace_aggid_t) <= size) {
		dtrace_aggid_t id = *(const dtrace_aggid_t *)(buf + offs);
		const dtrace_recdesc_t *vrec;
		dtrace_aggdesc_t *agg;

		if (id == DTRACE_AGGIDNONE) {
			/* filler that aligns the next record */
			offs += sizeof(id);
			continue;
		}
		if (dt_aggid_lookup(dtp, id, &agg) != 0)
			return dtp->dt_errno == EDT_NOMEM ? -1 : dt_set_errno(dtp, EDT_BADAGGID);
		if (((uintptr_t)(buf + offs) & (sizeof(uint64_t) - 1)) != 0)
			return dt_set_errno(dtp, EDT_DALIGN);
		if (agg->dtagd_nrecs < 1 || agg->dtagd_size == 0 || offs + agg->dtagd_size > size)
			return dt_set_errno(dtp, EDT_DMISMATCH);
		vrec = &agg->dtagd_rec[agg->dtagd_nrecs - 1];
		if (!DTRACEACT_ISAGG(vrec->dtrd_action) || !dt_aggregate_value_ok(vrec, buf + offs))
			return dt_set_errno(dtp, EDT_DMISMATCH);
		if (dt_aggregate_insert(dtp, cpu, agg, buf + offs) != 0)
			return -1;
		offs += agg->dtagd_size;
	}
	return 0;
}

int
dt_aggregate_go(dtrace_hdl_t *dtp)
{
	dt_aggregate_t *agp = &dtp->dt_aggregate;
	dtrace_optval_t size = dtp->dt_options[DTRACEOPT_AGGSIZE];

	if (size == DTRACEOPT_UNSET || size <= 0)
		return 0;
	free(agp->dtat_buf);
	if ((agp->dtat_buf = dt_alloc(dtp, (size_t)size)) == NULL)
		return -1;
	agp->dtat_bufsize = (size_t)size;
	return 0;
}

int
dtrace_aggregate_snap(dtrace_hdl_t *dtp)
{
	dt_aggregate_t *agp = &dtp->dt_aggregate;
	dtrace_optval_t interval = dtp->dt_options[DTRACEOPT_AGGRATE];
	int64_t now = dt_gethrtime();
	int cpu;

	if (dtp->dt_lastagg != 0) {
		if (now - dtp->dt_lastagg < interval)
			return 0;
		dtp->dt_lastagg += interval;
	} else {
		dtp->dt_lastagg = now;
	}

	if (!dtp->dt_active)
		return dt_set_errno(dtp, EINVAL);
	if (agp->dtat_bufsize == 0)
		return 0;

	for (cpu = 0; cpu < dtp->dt_ncpu; cpu++) {
		dtrace_bufdesc_t desc;

		memset(&desc, 0, sizeof(desc));
		desc.dtbd_size = agp->dtat_bufsize;
		desc.dtbd_cpu = (uint32_t)cpu;
		desc.dtbd_data = agp->dtat_buf;
		if (dt_ctl(dtp, DTRACE_CTL_AGGSNAP, &desc, NULL) != 0) {
			/* a CPU without buffers is not an error */
			if (dtp->dt_errno == ENOENT)
				continue;
			/* the core refused a header a traced process corrupted */
			if (dtp->dt_errno == EBADMSG)
				(void)dt_set_errno(dtp, EDT_BADBUF);
			return -1;
		}
		if (desc.dtbd_size > agp->dtat_bufsize)
			return dt_set_errno(dtp, EDT_DOFFSET);
		if (desc.dtbd_drops != 0 &&
		    dt_handle_cpudrop(dtp, cpu, DTRACEDROP_AGGREGATION, desc.dtbd_drops) != 0)
			return -1;
		if (desc.dtbd_size != 0 &&
		    dt_aggregate_merge(dtp, cpu, agp->dtat_buf, (size_t)desc.dtbd_size) != 0)
			return -1;
	}
	return 0;
}

/* --- Sorting ------------------------------------------------------------- */

/* qsort() passes no context; the sort options live here for one sort. */
static _Thread_local struct {
	int rev;
	int key;
	int keypos;
} dt_sortopt;

#define DT_LESSTHAN (dt_sortopt.rev == 0 ? -1 : 1)
#define DT_GREATERTHAN (dt_sortopt.rev == 0 ? 1 : -1)

static int
dt_cmp_i64(int64_t l, int64_t r)
{
	return l < r ? DT_LESSTHAN : l > r ? DT_GREATERTHAN : 0;
}

static int
dt_cmp_ld(long double l, long double r)
{
	return l < r ? DT_LESSTHAN : l > r ? DT_GREATERTHAN : 0;
}

static long double
dt_lquantize_sum(const int64_t *lquanta, int64_t *zero)
{
	int64_t arg = *lquanta++;
	int64_t base = DTRACE_LQUANTIZE_BASE(arg); /* 64 bits: base + levels * step need not fit 32 */
	uint16_t step = DTRACE_LQUANTIZE_STEP(arg);
	uint16_t levels = DTRACE_LQUANTIZE_LEVELS(arg), i;
	long double total = (long double)lquanta[0] * (long double)(base - 1);

	*zero = base - 1 == 0 ? lquanta[0] : 0;
	for (i = 0; i < levels; base += step, i++) {
		if (base == 0)
			*zero = lquanta[i + 1];
		total += (long double)lquanta[i + 1] * (long double)base;
	}
	if (base + 1 == 0 && *zero == 0)
		*zero = lquanta[levels + 1];
	return total + (long double)lquanta[levels + 1] * (long double)(base + 1);
}

static long double
dt_llquantize_sum(const int64_t *llquanta, size_t n)
{
	int64_t arg = *llquanta++;
	uint16_t factor = DTRACE_LLQUANTIZE_FACTOR(arg);
	uint16_t low = DTRACE_LLQUANTIZE_LOW(arg);
	uint16_t high = DTRACE_LLQUANTIZE_HIGH(arg);
	uint16_t nsteps = DTRACE_LLQUANTIZE_NSTEP(arg);
	size_t bin = 0;
	/* unsigned: factor^(high + 1) may pass INT64_MAX, and a forged
	 * parameter word anything; the walk is bounded by n all the same */
	uint64_t value = 1, next, step;
	long double total;
	int order;

	if (factor < 2 || nsteps == 0 || n < 2)
		return 0;
	for (order = 0; order < low; order++)
		value *= factor;
	total = (long double)llquanta[bin++] * (long double)(value - 1);
	next = value * factor;
	step = next > nsteps ? next / nsteps : 1;
	while (order <= high && bin < n - 2) {
		total += (long double)llquanta[bin++] * (long double)value;
		if ((value += step) != next)
			continue;
		next = value * factor;
		step = next > nsteps ? next / nsteps : 1;
		order++;
	}
	return total + (long double)llquanta[bin] * (long double)value;
}

static int
dt_aggregate_valcmp(const dt_ahashent_t *lh, const dt_ahashent_t *rh)
{
	const dtrace_aggdesc_t *lagg = lh->dtahe_data.dtada_desc;
	const dtrace_aggdesc_t *ragg = rh->dtahe_data.dtada_desc;
	const dtrace_recdesc_t *lrec = &lagg->dtagd_rec[lagg->dtagd_nrecs - 1];
	const dtrace_recdesc_t *rrec = &ragg->dtagd_rec[ragg->dtagd_nrecs - 1];
	const int64_t *l = (const int64_t *)(lh->dtahe_data.dtada_data + lrec->dtrd_offset);
	const int64_t *r = (const int64_t *)(rh->dtahe_data.dtada_data + rrec->dtrd_offset);
	int64_t lzero = 0, rzero = 0;
	int rval, i;

	if (lrec->dtrd_action != rrec->dtrd_action)
		return dt_cmp_i64(lrec->dtrd_action, rrec->dtrd_action);

	switch (lrec->dtrd_action) {
	case DTRACEAGG_AVG:
		return dt_cmp_i64(dt_sdiv64(l[1], l[0]), dt_sdiv64(r[1], r[0]));
	case DTRACEAGG_STDDEV: {
		uint64_t ls = dt_stddev((const uint64_t *)l, 1);
		uint64_t rs = dt_stddev((const uint64_t *)r, 1);

		return ls < rs ? DT_LESSTHAN : ls > rs ? DT_GREATERTHAN : 0;
	}
	case DTRACEAGG_QUANTIZE: {
		long double lt = 0, rt = 0;

		for (i = 0; i < DTRACE_QUANTIZE_NBUCKETS; i++) {
			int64_t bv = DTRACE_QUANTIZE_BUCKETVAL(i);

			lt += (long double)bv * (long double)l[i];
			rt += (long double)bv * (long double)r[i];
		}
		/* equal totals: the weight at zero decides */
		if ((rval = dt_cmp_ld(lt, rt)) != 0)
			return rval;
		return dt_cmp_i64(l[DTRACE_QUANTIZE_ZEROBUCKET], r[DTRACE_QUANTIZE_ZEROBUCKET]);
	}
	case DTRACEAGG_LQUANTIZE: {
		long double lt = dt_lquantize_sum(l, &lzero);
		long double rt = dt_lquantize_sum(r, &rzero);

		if ((rval = dt_cmp_ld(lt, rt)) != 0)
			return rval;
		return dt_cmp_i64(lzero, rzero);
	}
	case DTRACEAGG_LLQUANTIZE: {
		long double lt = dt_llquantize_sum(l, lrec->dtrd_size / sizeof(int64_t));
		long double rt = dt_llquantize_sum(r, rrec->dtrd_size / sizeof(int64_t));

		if ((rval = dt_cmp_ld(lt, rt)) != 0)
			return rval;
		return dt_cmp_i64(l[1], r[1]);
	}
	default:
		return dt_cmp_i64(l[0], r[0]);
	}
}

static int
dt_aggregate_keycmp(const dt_ahashent_t *lh, const dt_ahashent_t *rh)
{
	const dtrace_aggdesc_t *lagg = lh->dtahe_data.dtada_desc;
	const dtrace_aggdesc_t *ragg = rh->dtahe_data.dtada_desc;
	int i, j, keypos, nrecs;

	if (lagg->dtagd_nrecs != ragg->dtagd_nrecs)
		return lagg->dtagd_nrecs < ragg->dtagd_nrecs ? DT_LESSTHAN : DT_GREATERTHAN;

	nrecs = lagg->dtagd_nrecs - 1;
	keypos = dt_sortopt.keypos + 1 >= nrecs ? 0 : dt_sortopt.keypos;

	/* record 0 is the compiler's id record; keys start at 1 */
	for (i = 1; i < nrecs; i++) {
		const dtrace_recdesc_t *lrec, *rrec;
		const char *ldata, *rdata;
		uint64_t lval, rval;
		int ndx = i + keypos;

		if (ndx >= nrecs)
			ndx = ndx - nrecs + 1;
		lrec = &lagg->dtagd_rec[ndx];
		rrec = &ragg->dtagd_rec[ndx];
		ldata = lh->dtahe_data.dtada_data + lrec->dtrd_offset;
		rdata = rh->dtahe_data.dtada_data + rrec->dtrd_offset;

		if (lrec->dtrd_size != rrec->dtrd_size)
			return lrec->dtrd_size < rrec->dtrd_size ? DT_LESSTHAN : DT_GREATERTHAN;

		switch (lrec->dtrd_size) {
		case sizeof(uint64_t):
			lval = *(const uint64_t *)ldata;
			rval = *(const uint64_t *)rdata;
			break;
		case sizeof(uint32_t):
			lval = *(const uint32_t *)ldata;
			rval = *(const uint32_t *)rdata;
			break;
		case sizeof(uint16_t):
			lval = *(const uint16_t *)ldata;
			rval = *(const uint16_t *)rdata;
			break;
		case sizeof(uint8_t):
			lval = *(const uint8_t *)ldata;
			rval = *(const uint8_t *)rdata;
			break;
		default:
			if (lrec->dtrd_action == DTRACEACT_UMOD || lrec->dtrd_action == DTRACEACT_UADDR ||
			    lrec->dtrd_action == DTRACEACT_USYM) {
				for (j = 0; j < 2; j++) {
					lval = ((const uint64_t *)ldata)[j];
					rval = ((const uint64_t *)rdata)[j];
					if (lval != rval)
						return lval < rval ? DT_LESSTHAN : DT_GREATERTHAN;
				}
			} else {
				for (j = 0; j < (int)lrec->dtrd_size; j++) {
					uint8_t lb = ((const uint8_t *)ldata)[j];
					uint8_t rb = ((const uint8_t *)rdata)[j];

					if (lb != rb)
						return lb < rb ? DT_LESSTHAN : DT_GREATERTHAN;
				}
			}
			continue;
		}
		if (lval != rval)
			return lval < rval ? DT_LESSTHAN : DT_GREATERTHAN;
	}
	return 0;
}

static int
dt_aggregate_varcmp(const dt_ahashent_t *lh, const dt_ahashent_t *rh)
{
	return dt_cmp_i64(lh->dtahe_varid, rh->dtahe_varid);
}

#define DT_EP(p) (*(dt_ahashent_t *const *)(p))

static int
dt_aggregate_varkeycmp(const void *l, const void *r)
{
	int rval = dt_aggregate_varcmp(DT_EP(l), DT_EP(r));

	return rval != 0 ? rval : dt_aggregate_keycmp(DT_EP(l), DT_EP(r));
}

static int
dt_aggregate_varvalcmp(const void *l, const void *r)
{
	int rval = dt_aggregate_varcmp(DT_EP(l), DT_EP(r));

	if (rval != 0)
		return rval;
	if ((rval = dt_aggregate_valcmp(DT_EP(l), DT_EP(r))) != 0)
		return rval;
	return dt_aggregate_keycmp(DT_EP(l), DT_EP(r));
}

static int
dt_aggregate_keyvarcmp(const void *l, const void *r)
{
	int rval = dt_aggregate_keycmp(DT_EP(l), DT_EP(r));

	return rval != 0 ? rval : dt_aggregate_varcmp(DT_EP(l), DT_EP(r));
}

static int
dt_aggregate_varkeyrevcmp(const void *l, const void *r)
{
	return dt_aggregate_varkeycmp(r, l);
}

static int
dt_aggregate_varvalrevcmp(const void *l, const void *r)
{
	return dt_aggregate_varvalcmp(r, l);
}

/* Sort with the aggsort* options (compar NULL), or with compar and no options. */
static void
dt_aggregate_qsort(dtrace_hdl_t *dtp, void *base, size_t nel, size_t width,
		   int (*compar)(const void *, const void *))
{
	dtrace_optval_t keypos = dtp->dt_options[DTRACEOPT_AGGSORTKEYPOS];
	typeof(dt_sortopt) saved = dt_sortopt;

	if (compar == NULL) {
		dt_sortopt.rev = dtp->dt_options[DTRACEOPT_AGGSORTREV] != DTRACEOPT_UNSET;
		dt_sortopt.key = dtp->dt_options[DTRACEOPT_AGGSORTKEY] != DTRACEOPT_UNSET;
		dt_sortopt.keypos = keypos != DTRACEOPT_UNSET && keypos <= INT_MAX ? (int)keypos : 0;
		compar = dt_sortopt.key ? dt_aggregate_varkeycmp : dt_aggregate_varvalcmp;
	} else {
		dt_sortopt.rev = 0;
		dt_sortopt.key = 0;
		dt_sortopt.keypos = 0;
	}
	qsort(base, nel, width, compar);
	dt_sortopt = saved;
}

/* --- Walking ------------------------------------------------------------- */

static void
dt_aggregate_free(dtrace_hdl_t *dtp, dt_ahashent_t *h)
{
	dtrace_aggdata_t *aggdata = &h->dtahe_data;
	int i;

	(void)dtp;
	if (aggdata->dtada_percpu != NULL) {
		for (i = 0; i < aggdata->dtada_ncpu; i++)
			free(aggdata->dtada_percpu[i]);
		free(aggdata->dtada_percpu);
	}
	free(h); /* dtada_data lives in the same allocation */
}

static void
dt_aggregate_remove(dtrace_hdl_t *dtp, dt_ahashent_t *h)
{
	dt_aggregate_t *agp = &dtp->dt_aggregate;
	dt_ahashent_t **hp = &agp->dtat_hash[h->dtahe_hashval & (agp->dtat_hashsize - 1)];

	while (*hp != h)
		hp = &(*hp)->dtahe_next;
	*hp = h->dtahe_next;
	if (h->dtahe_prevall != NULL)
		h->dtahe_prevall->dtahe_nextall = h->dtahe_nextall;
	else
		agp->dtat_all = h->dtahe_nextall;
	if (h->dtahe_nextall != NULL)
		h->dtahe_nextall->dtahe_prevall = h->dtahe_prevall;
	agp->dtat_nent--;
	dt_aggregate_free(dtp, h);
}

static int
dt_aggwalk_rval(dtrace_hdl_t *dtp, dt_ahashent_t *h, int rval)
{
	dtrace_aggdata_t *data = &h->dtahe_data;
	const dtrace_aggdesc_t *agg = data->dtada_desc;
	const dtrace_recdesc_t *rec;
	size_t size, offs = 0;
	int i;

	switch (rval) {
	case DTRACE_AGGWALK_NEXT:
		return 0;
	case DTRACE_AGGWALK_CLEAR:
		rec = &agg->dtagd_rec[agg->dtagd_nrecs - 1];
		size = rec->dtrd_size;
		/* a quantization keeps its parameters */
		if (rec->dtrd_action == DTRACEAGG_LQUANTIZE ||
		    rec->dtrd_action == DTRACEAGG_LLQUANTIZE) {
			offs = sizeof(uint64_t);
			size -= sizeof(uint64_t);
		}
		memset(data->dtada_data + rec->dtrd_offset + offs, 0, size);
		if (data->dtada_percpu != NULL) {
			for (i = 0; i < data->dtada_ncpu; i++)
				memset(data->dtada_percpu[i] + offs, 0, size);
		}
		return 0;
	case DTRACE_AGGWALK_ERROR:
		/* our own callbacks have set dt_errno; others say errno */
		return dt_set_errno(dtp, dtp->dt_errno != 0 ? dtp->dt_errno : errno);
	case DTRACE_AGGWALK_ABORT:
		return dt_set_errno(dtp, EDT_DIRABORT);
	case DTRACE_AGGWALK_DENORMALIZE:
		data->dtada_normal = 1;
		return 0;
	case DTRACE_AGGWALK_NORMALIZE:
		if (data->dtada_normal == 0) {
			data->dtada_normal = 1;
			return dt_set_errno(dtp, EDT_BADRVAL);
		}
		return 0;
	case DTRACE_AGGWALK_REMOVE:
		dt_aggregate_remove(dtp, h);
		return 0;
	default:
		return dt_set_errno(dtp, EDT_BADRVAL);
	}
}

int
dtrace_aggregate_walk(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg)
{
	dt_ahashent_t *h, *next;

	for (h = dtp->dt_aggregate.dtat_all; h != NULL; h = next) {
		next = h->dtahe_nextall; /* the callback may remove h */
		if (dt_aggwalk_rval(dtp, h, func(&h->dtahe_data, arg)) != 0)
			return -1;
	}
	return 0;
}

static dt_ahashent_t **
dt_aggregate_array(dtrace_hdl_t *dtp, size_t *np)
{
	dt_aggregate_t *agp = &dtp->dt_aggregate;
	dt_ahashent_t *h, **sorted;
	size_t i = 0;

	if ((sorted = dt_alloc(dtp, (agp->dtat_nent + 1) * sizeof(*sorted))) == NULL)
		return NULL;
	for (h = agp->dtat_all; h != NULL; h = h->dtahe_nextall)
		sorted[i++] = h;
	*np = i;
	return sorted;
}

/*
 * agghist: every tuple of a count(), sum(), avg() or stddev() aggregation
 * learns the aggregation's total of absolute values (with aggzoom, the
 * largest one over 95%) and whether any value is positive or negative, as
 * DTrace works them out for its sorted walks; `clear' takes it all away.
 */
static int
dt_aggregate_total(dtrace_hdl_t *dtp, int clear)
{
	const uint32_t tflags = DTRACE_A_TOTAL | DTRACE_A_HASNEGATIVES | DTRACE_A_HASPOSITIVES;
	dtrace_aggdata_t **total;
	dtrace_aggvarid_t max = DTRACE_AGGVARIDNONE;
	dt_ahashent_t *h;

	for (h = dtp->dt_aggregate.dtat_all; h != NULL; h = h->dtahe_nextall) {
		if (h->dtahe_varid > max)
			max = h->dtahe_varid;
		h->dtahe_data.dtada_total = 0;
		h->dtahe_data.dtada_flags &= ~tflags;
	}
	if (clear || max == DTRACE_AGGVARIDNONE)
		return 0;
	if ((total = dt_calloc(dtp, ((size_t)max + 1) * sizeof(*total))) == NULL)
		return -1;

	for (h = dtp->dt_aggregate.dtat_all; h != NULL; h = h->dtahe_nextall) {
		dtrace_aggdata_t *aggdata = &h->dtahe_data;
		const dtrace_aggdesc_t *agg = aggdata->dtada_desc;
		const dtrace_recdesc_t *rec = &agg->dtagd_rec[agg->dtagd_nrecs - 1];
		const int64_t *addr = (const int64_t *)(aggdata->dtada_data + rec->dtrd_offset);
		int64_t val;

		switch (rec->dtrd_action) {
		case DTRACEAGG_STDDEV:
			val = (int64_t)dt_stddev((const uint64_t *)addr, 1);
			break;
		case DTRACEAGG_SUM:
		case DTRACEAGG_COUNT:
			val = addr[0];
			break;
		case DTRACEAGG_AVG:
			val = dt_sdiv64(addr[1], addr[0]);
			break;
		default:
			continue;
		}
		if (total[h->dtahe_varid] == NULL) {
			total[h->dtahe_varid] = aggdata;
			aggdata->dtada_flags |= DTRACE_A_TOTAL;
		} else {
			aggdata = total[h->dtahe_varid];
		}
		if (val > 0)
			aggdata->dtada_flags |= DTRACE_A_HASPOSITIVES;
		if (val < 0) {
			aggdata->dtada_flags |= DTRACE_A_HASNEGATIVES;
			val = -val;
		}
		if (dtp->dt_options[DTRACEOPT_AGGZOOM] != DTRACEOPT_UNSET) {
			/* as DTrace: the zoomed value is truncated to an integer */
			val = (int64_t)((long double)val * (1 / DT_AGGZOOM_MAX));
			if (val > aggdata->dtada_total)
				aggdata->dtada_total = val;
		} else {
			aggdata->dtada_total += val;
		}
	}

	for (h = dtp->dt_aggregate.dtat_all; h != NULL; h = h->dtahe_nextall) {
		const dtrace_aggdata_t *t = total[h->dtahe_varid];

		if (t == NULL || t == &h->dtahe_data)
			continue;
		h->dtahe_data.dtada_total = t->dtada_total;
		h->dtahe_data.dtada_flags |= t->dtada_flags & tflags;
	}
	free(total);
	return 0;
}

/*
 * aggpack: every tuple of a quantize() aggregation learns the span of bins
 * that is non-empty in any tuple (lquantize(): its whole range), as DTrace's
 * dt_aggregate_minmaxbin works it out; `clear' takes it away.
 */
static int
dt_aggregate_minmaxbin(dtrace_hdl_t *dtp, int clear)
{
	dtrace_aggdata_t **minmax;
	dtrace_aggvarid_t max = DTRACE_AGGVARIDNONE;
	dt_ahashent_t *h;

	for (h = dtp->dt_aggregate.dtat_all; h != NULL; h = h->dtahe_nextall) {
		if (h->dtahe_varid > max)
			max = h->dtahe_varid;
		h->dtahe_data.dtada_minbin = 0;
		h->dtahe_data.dtada_maxbin = 0;
		h->dtahe_data.dtada_flags &= ~(uint32_t)DTRACE_A_MINMAXBIN;
	}
	if (clear || max == DTRACE_AGGVARIDNONE)
		return 0;
	if ((minmax = dt_calloc(dtp, ((size_t)max + 1) * sizeof(*minmax))) == NULL)
		return -1;

	for (h = dtp->dt_aggregate.dtat_all; h != NULL; h = h->dtahe_nextall) {
		dtrace_aggdata_t *aggdata = &h->dtahe_data, *mm;
		const dtrace_aggdesc_t *agg = aggdata->dtada_desc;
		const dtrace_recdesc_t *rec = &agg->dtagd_rec[agg->dtagd_nrecs - 1];
		const int64_t *addr = (const int64_t *)(aggdata->dtada_data + rec->dtrd_offset);
		int size = (int)(rec->dtrd_size / sizeof(int64_t)), minbin = -1, maxbin = -1, i;

		switch (rec->dtrd_action) {
		case DTRACEAGG_LQUANTIZE:
			minbin = 1;
			maxbin = size - 2;
			break;
		case DTRACEAGG_QUANTIZE:
			for (i = 0; i < size; i++) {
				if (addr[i] == 0)
					continue;
				if (minbin == -1)
					minbin = i;
				maxbin = i;
			}
			/* nothing (clear(), negative increments): the zero bucket */
			if (minbin == -1)
				minbin = maxbin = DTRACE_QUANTIZE_ZEROBUCKET;
			break;
		default:
			continue;
		}
		if ((mm = minmax[h->dtahe_varid]) == NULL) {
			minmax[h->dtahe_varid] = aggdata;
			aggdata->dtada_flags |= DTRACE_A_MINMAXBIN;
			aggdata->dtada_minbin = (uint16_t)minbin;
			aggdata->dtada_maxbin = (uint16_t)maxbin;
			continue;
		}
		if (minbin < mm->dtada_minbin)
			mm->dtada_minbin = (uint16_t)minbin;
		if (maxbin > mm->dtada_maxbin)
			mm->dtada_maxbin = (uint16_t)maxbin;
	}

	for (h = dtp->dt_aggregate.dtat_all; h != NULL; h = h->dtahe_nextall) {
		const dtrace_aggdata_t *mm = minmax[h->dtahe_varid];

		if (mm == NULL || mm == &h->dtahe_data)
			continue;
		h->dtahe_data.dtada_minbin = mm->dtada_minbin;
		h->dtahe_data.dtada_maxbin = mm->dtada_maxbin;
		h->dtahe_data.dtada_flags |= DTRACE_A_MINMAXBIN;
	}
	free(minmax);
	return 0;
}

static int
dt_aggregate_walk_sorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg,
			 int (*sfunc)(const void *, const void *))
{
	int hist = dtp->dt_options[DTRACEOPT_AGGHIST] != DTRACEOPT_UNSET;
	int pack = dtp->dt_options[DTRACEOPT_AGGPACK] != DTRACEOPT_UNSET;
	dt_ahashent_t **sorted;
	size_t i, n;
	int rval = 0;

	if (hist && dt_aggregate_total(dtp, 0) != 0)
		return -1;
	if (pack && dt_aggregate_minmaxbin(dtp, 0) != 0)
		return -1;
	if ((sorted = dt_aggregate_array(dtp, &n)) == NULL)
		return -1;
	dt_aggregate_qsort(dtp, sorted, n, sizeof(*sorted), sfunc);
	for (i = 0; i < n; i++) {
		if (dt_aggwalk_rval(dtp, sorted[i], func(&sorted[i]->dtahe_data, arg)) != 0) {
			rval = -1;
			break;
		}
	}
	free(sorted);
	if (hist)
		(void)dt_aggregate_total(dtp, 1);
	if (pack)
		(void)dt_aggregate_minmaxbin(dtp, 1);
	return rval;
}

int
dtrace_aggregate_walk_sorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg)
{
	return dt_aggregate_walk_sorted(dtp, func, arg, NULL);
}

int
dtrace_aggregate_walk_keysorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg)
{
	return dt_aggregate_walk_sorted(dtp, func, arg, dt_aggregate_varkeycmp);
}

int
dtrace_aggregate_walk_valsorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg)
{
	return dt_aggregate_walk_sorted(dtp, func, arg, dt_aggregate_varvalcmp);
}

int
dtrace_aggregate_walk_keyrevsorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg)
{
	return dt_aggregate_walk_sorted(dtp, func, arg, dt_aggregate_varkeyrevcmp);
}

int
dtrace_aggregate_walk_valrevsorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg)
{
	return dt_aggregate_walk_sorted(dtp, func, arg, dt_aggregate_varvalrevcmp);
}

/*
 * printa() of several aggregations: one line per key present in any of
 * them.  Tuples with equal keys form a bundle, [agg 0 .. agg n-1, key],
 * with zero-valued stand-ins for aggregations that lack the key; bundles
 * sort by the values in turn (starting at aggsortpos) and then the key, or
 * by key first with aggsortkey.
 */
typedef struct dt_bundle {
	dt_ahashent_t **db_ents; /* naggvars entries + the representative */
} dt_bundle_t;

static _Thread_local int dt_bundle_n;

static int
dt_aggregate_bundlecmp(const void *l, const void *r)
{
	dt_ahashent_t *const *lh = ((const dt_bundle_t *)l)->db_ents;
	dt_ahashent_t *const *rh = ((const dt_bundle_t *)r)->db_ents;
	int i, rval;

	if (dt_sortopt.key &&
	    (rval = dt_aggregate_keycmp(lh[dt_bundle_n], rh[dt_bundle_n])) != 0)
		return rval;
	for (i = 0; i < dt_bundle_n; i++) {
		if ((rval = dt_aggregate_valcmp(lh[i], rh[i])) != 0)
			return rval;
	}
	if (dt_sortopt.key)
		return 0;
	return dt_aggregate_keycmp(lh[dt_bundle_n], rh[dt_bundle_n]);
}

static int
dt_aggregate_keyvarcmp_entries(const void *l, const void *r)
{
	return dt_aggregate_keyvarcmp(l, r);
}

int
dtrace_aggregate_walk_joined(dtrace_hdl_t *dtp, dtrace_aggvarid_t *aggvars, int naggvars,
			     dtrace_aggregate_walk_joined_f *func, void *arg)
{
	dtrace_optval_t sortpos = dtp->dt_options[DTRACEOPT_AGGSORTPOS];
	dt_ahashent_t **sorted = NULL, *zents = NULL;
	dt_bundle_t *bundles = NULL;
	const dtrace_aggdata_t **data = NULL;
	size_t i, n = 0, nb = 0, start;
	int j, *slot = NULL, rval = -1;

	if (naggvars <= 0)
		return dt_set_errno(dtp, EDT_BADAGGVAR);
	if (sortpos == DTRACEOPT_UNSET || sortpos >= naggvars)
		sortpos = 0;
	for (j = 0; j < naggvars; j++) {
		if (aggvars[j] <= DTRACE_AGGVARIDNONE)
			return dt_set_errno(dtp, EDT_BADAGGVAR);
	}

	if ((sorted = dt_aggregate_array(dtp, &n)) == NULL)
		return -1;

	/* Keep only tuples of the requested aggregations; remember their slot
	 * (the sort position rotates which aggregation is compared first). */
	{
		size_t k = 0;

		for (i = 0; i < n; i++) {
			for (j = 0; j < naggvars; j++) {
				if (sorted[i]->dtahe_varid == aggvars[j])
					break;
			}
			if (j < naggvars)
				sorted[k++] = sorted[i];
		}
		n = k;
	}
	if (n == 0) {
		rval = 0;
		goto out;
	}

	/* slot[j]: position in a bundle of aggvars[j] (first occurrence) */
	if ((slot = dt_calloc(dtp, sizeof(int) * (size_t)naggvars)) == NULL)
		goto out;
	for (j = 0; j < naggvars; j++)
		slot[j] = (int)((j - sortpos + naggvars) % naggvars);

	/*
	 * Zero-valued stand-ins: the layout of some tuple of the same
	 * aggregation; for one that has no tuple at all, its description
	 * (found among the enabled aggregations by its variable id), as
	 * DTrace's walk builds them, so an empty quantize() prints as one.
	 */
	if ((zents = dt_calloc(dtp, sizeof(*zents) * (size_t)naggvars)) == NULL)
		goto out;
	for (j = 0; j < naggvars; j++) {
		dt_ahashent_t *proto = NULL;
		const dtrace_recdesc_t *vrec;
		dtrace_aggdata_t *zd = &zents[slot[j]].dtahe_data;

		for (i = 0; i < n && proto == NULL; i++) {
			if (sorted[i]->dtahe_varid == aggvars[j])
				proto = sorted[i];
		}
		if (proto == NULL) {
			dtrace_aggdesc_t *agg = NULL;
			dtrace_aggid_t id;

			/* the rest of the entry (handle, probe) from any tuple */
			*zd = sorted[0]->dtahe_data;
			for (id = DTRACE_AGGIDNONE + 1; dtp->dt_aggvarid != NULL; id++) {
				if (dt_aggid_lookup(dtp, id, &agg) != 0) {
					agg = NULL;
					break;
				}
				if (agg->dtagd_nrecs > 1 &&
				    dtp->dt_aggvarid(dtp, agg->dtagd_rec[0].dtrd_uarg) == aggvars[j])
					break;
			}
			if (agg != NULL) {
				zd->dtada_desc = agg;
				zd->dtada_size = agg->dtagd_size;
				zd->dtada_normal = 1;
			}
		} else {
			*zd = proto->dtahe_data;
			zd->dtada_normal = proto->dtahe_data.dtada_normal;
		}
		zd->dtada_percpu = NULL;
		if ((zd->dtada_data = dt_calloc(dtp, zd->dtada_size)) == NULL)
			goto out;
		*(dtrace_aggvarid_t *)(zd->dtada_data + zd->dtada_desc->dtagd_rec[0].dtrd_offset) =
		    aggvars[j];
		vrec = &zd->dtada_desc->dtagd_rec[zd->dtada_desc->dtagd_nrecs - 1];
		/* lquantize()/llquantize() data open with their parameters */
		if (vrec->dtrd_action == DTRACEAGG_LQUANTIZE ||
		    vrec->dtrd_action == DTRACEAGG_LLQUANTIZE) {
			if (proto != NULL)
				memcpy(zd->dtada_data + vrec->dtrd_offset,
				       proto->dtahe_data.dtada_data + vrec->dtrd_offset, sizeof(uint64_t));
			else
				memcpy(zd->dtada_data + vrec->dtrd_offset, &vrec->dtrd_arg, sizeof(uint64_t));
		}
		zents[slot[j]].dtahe_varid = aggvars[j];
	}

	/* Group equal keys. */
	dt_aggregate_qsort(dtp, sorted, n, sizeof(*sorted), dt_aggregate_keyvarcmp_entries);
	if ((bundles = dt_calloc(dtp, sizeof(*bundles) * n)) == NULL)
		goto out;
	for (i = 1, start = 0; i <= n; i++) {
		dt_ahashent_t **ents;
		size_t k;

		if (i < n && dt_aggregate_keycmp(sorted[i], sorted[i - 1]) == 0)
			continue;
		if ((ents = dt_calloc(dtp, sizeof(*ents) * (size_t)(naggvars + 1))) == NULL)
			goto out;
		bundles[nb++].db_ents = ents;
		for (k = start; k < i; k++) {
			for (j = 0; j < naggvars; j++) {
				if (aggvars[j] == sorted[k]->dtahe_varid && ents[slot[j]] == NULL) {
					ents[slot[j]] = sorted[k];
					break;
				}
			}
			if (ents[naggvars] == NULL)
				ents[naggvars] = sorted[k];
		}
		for (j = 0; j < naggvars; j++) {
			int first;

			if (ents[slot[j]] != NULL)
				continue;
			/* the same aggregation named twice shares its tuple */
			for (first = 0; first < j; first++) {
				if (aggvars[first] == aggvars[j])
					break;
			}
			ents[slot[j]] = first < j && ents[slot[first]] != NULL &&
			                        ents[slot[first]] != &zents[slot[first]]
			                    ? ents[slot[first]]
			                    : &zents[slot[j]];
		}
		start = i;
	}

	dt_bundle_n = naggvars;
	{
		typeof(dt_sortopt) saved = dt_sortopt;
		dtrace_optval_t keypos = dtp->dt_options[DTRACEOPT_AGGSORTKEYPOS];

		dt_sortopt.rev = dtp->dt_options[DTRACEOPT_AGGSORTREV] != DTRACEOPT_UNSET;
		dt_sortopt.key = dtp->dt_options[DTRACEOPT_AGGSORTKEY] != DTRACEOPT_UNSET;
		dt_sortopt.keypos = keypos != DTRACEOPT_UNSET && keypos <= INT_MAX ? (int)keypos : 0;
		qsort(bundles, nb, sizeof(*bundles), dt_aggregate_bundlecmp);
		dt_sortopt = saved;
	}

	if ((data = dt_alloc(dtp, sizeof(*data) * (size_t)(naggvars + 1))) == NULL)
		goto out;
	for (i = 0; i < nb; i++) {
		data[0] = &bundles[i].db_ents[naggvars]->dtahe_data;
		for (j = 0; j < naggvars; j++)
			data[j + 1] = &bundles[i].db_ents[slot[j]]->dtahe_data;
		if (func(data, naggvars + 1, arg) == -1)
			goto out;
	}
	rval = 0;
out:
	if (bundles != NULL) {
		for (i = 0; i < nb; i++)
			free(bundles[i].db_ents);
		free(bundles);
	}
	if (zents != NULL) {
		for (j = 0; j < naggvars; j++)
			free(zents[j].dtahe_data.dtada_data);
		free(zents);
	}
	free(data);
	free(slot);
	free(sorted);
	return rval;
}

/* --- Printing ------------------------------------------------------------ */

/*
 * One line of printa() without a format, or of the final dump: the keys
 * (record 0 is the compiler's id and is skipped), then each aggregation's
 * value, then a newline.
 */
int
dt_print_aggs(const dtrace_aggdata_t **aggsdata, int naggvars, void *arg)
{
	dt_print_aggdata_t *pd = arg;
	const dtrace_aggdata_t *aggdata = aggsdata[0];
	dtrace_aggdesc_t *agg = aggdata->dtada_desc;
	dtrace_hdl_t *dtp = pd->dtpa_dtp;
	FILE *fp = pd->dtpa_fp;
	int i, aggact = 0;

	pd->dtpa_agghist = (aggdata->dtada_flags & DTRACE_A_TOTAL) != 0;
	pd->dtpa_aggpack = (aggdata->dtada_flags & DTRACE_A_MINMAXBIN) != 0;

	/* agghist, aggpack: a header over each aggregation, "key" as wide as the keys print */
	if (pd->dtpa_agghist || pd->dtpa_aggpack) {
		const dt_ahashent_t *h =
		    (const dt_ahashent_t *)((const char *)aggdata - offsetof(dt_ahashent_t, dtahe_data));

		if (pd->dtpa_agghisthdr != h->dtahe_varid) {
			int width = 0;

			for (i = 1; i < agg->dtagd_nrecs && !DTRACEACT_ISAGG(agg->dtagd_rec[i].dtrd_action);
			     i++) {
				switch (agg->dtagd_rec[i].dtrd_size) {
				case sizeof(uint8_t):
					width += 3 + 1;
					break;
				case sizeof(uint16_t):
					width += 5 + 1;
					break;
				case sizeof(uint32_t):
					width += 8 + 1;
					break;
				default:
					width += 16 + 1;
					break;
				}
			}
			if (pd->dtpa_agghist ? dt_print_quanthdr(dtp, fp, width)
			                     : dt_print_quanthdr_packed(dtp, fp, width, aggdata,
			                                                agg->dtagd_rec[i].dtrd_action))
				return -1;
			pd->dtpa_agghisthdr = h->dtahe_varid;
		}
	}

	for (i = 1; i < agg->dtagd_nrecs; i++) {
		const dtrace_recdesc_t *rec = &agg->dtagd_rec[i];

		if (DTRACEACT_ISAGG(rec->dtrd_action)) {
			aggact = i;
			break;
		}
		if (dt_print_datum(dtp, fp, rec, aggdata->dtada_data + rec->dtrd_offset,
		                   rec->dtrd_size, 1, pd->dtpa_agghist || pd->dtpa_aggpack) != 0)
			return -1;
	}
	if (aggact == 0)
		return dt_set_errno(dtp, EDT_BADAGG);

	for (i = naggvars == 1 ? 0 : 1; i < naggvars; i++) {
		const dtrace_recdesc_t *rec;

		aggdata = aggsdata[i];
		agg = aggdata->dtada_desc;
		rec = &agg->dtagd_rec[aggact];
		if (!DTRACEACT_ISAGG(rec->dtrd_action))
			return dt_set_errno(dtp, EDT_BADAGG);
		if (pd->dtpa_agghist) {
			/* the value's first word as a bar (DTrace's: a count or a sum) */
			if (dt_printf(dtp, fp, " ") != 0 ||
			    dt_print_histline(dtp, fp,
			                      *(const int64_t *)(aggdata->dtada_data + rec->dtrd_offset),
			                      aggdata->dtada_normal, (long double)aggdata->dtada_total,
			                      (aggdata->dtada_flags & DTRACE_A_HASPOSITIVES) != 0,
			                      (aggdata->dtada_flags & DTRACE_A_HASNEGATIVES) != 0) != 0)
				return -1;
		} else if (pd->dtpa_aggpack && rec->dtrd_action == DTRACEAGG_QUANTIZE) {
			if (dt_print_quantize_packed(dtp, fp, aggdata->dtada_data + rec->dtrd_offset,
			                             rec->dtrd_size, aggdata) != 0)
				return -1;
		} else if (pd->dtpa_aggpack && rec->dtrd_action == DTRACEAGG_LQUANTIZE) {
			if (dt_print_lquantize_packed(dtp, fp, aggdata->dtada_data + rec->dtrd_offset,
			                              rec->dtrd_size, aggdata) != 0)
				return -1;
		} else if (dt_print_datum(dtp, fp, rec, aggdata->dtada_data + rec->dtrd_offset,
		                          rec->dtrd_size, aggdata->dtada_normal,
		                          pd->dtpa_agghist || pd->dtpa_aggpack) != 0) {
			return -1;
		}
		if (!pd->dtpa_allunprint)
			agg->dtagd_flags |= DTRACE_AGD_PRINTED;
	}
	/* a histogram or packed line ends with its bar */
	return pd->dtpa_agghist || pd->dtpa_aggpack ? 0 : dt_printf(dtp, fp, "\n");
}

int
dt_print_agg(const dtrace_aggdata_t *aggdata, void *arg)
{
	dt_print_aggdata_t *pd = arg;
	const dtrace_aggdesc_t *agg = aggdata->dtada_desc;

	if (pd->dtpa_allunprint) {
		if (agg->dtagd_flags & DTRACE_AGD_PRINTED)
			return DTRACE_AGGWALK_NEXT;
	} else {
		const dt_ahashent_t *h =
		    (const dt_ahashent_t *)((const char *)aggdata - offsetof(dt_ahashent_t, dtahe_data));

		if (agg->dtagd_nrecs == 0 || pd->dtpa_id != h->dtahe_varid)
			return DTRACE_AGGWALK_NEXT;
	}
	return dt_print_aggs(&aggdata, 1, arg) == 0 ? DTRACE_AGGWALK_NEXT : DTRACE_AGGWALK_ERROR;
}

int
dtrace_aggregate_print(dtrace_hdl_t *dtp, FILE *fp, dtrace_aggregate_walk_f *func)
{
	dt_print_aggdata_t pd;

	memset(&pd, 0, sizeof(pd));
	pd.dtpa_dtp = dtp;
	pd.dtpa_fp = fp;
	pd.dtpa_allunprint = 1;
	if (func == NULL)
		func = dtrace_aggregate_walk_sorted;
	if (func(dtp, dt_print_agg, &pd) == -1)
		return -1;
	return 0;
}

void
dtrace_aggregate_clear(dtrace_hdl_t *dtp)
{
	dt_ahashent_t *h;

	for (h = dtp->dt_aggregate.dtat_all; h != NULL; h = h->dtahe_nextall)
		(void)dt_aggwalk_rval(dtp, h, DTRACE_AGGWALK_CLEAR);
}

void
dt_aggregate_destroy(dtrace_hdl_t *dtp)
{
	dt_aggregate_t *agp = &dtp->dt_aggregate;
	dt_ahashent_t *h, *next;

	for (h = agp->dtat_all; h != NULL; h = next) {
		next = h->dtahe_nextall;
		dt_aggregate_free(dtp, h);
	}
	free(agp->dtat_hash);
	free(agp->dtat_buf);
	memset(agp, 0, sizeof(*agp));
}
