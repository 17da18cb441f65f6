/*
 * dt_print.c: how DTrace prints a record that has no format of its own:
 * trace() of each size, strings and byte dumps, stack()/ustack() frames,
 * sym()/mod()/usym()/umod(), and aggregation values, above all the
 * quantize()/lquantize()/llquantize() distributions.
 *
 * Every width, label and bar here is DTrace's, character for character: a
 * distribution is a header, one line per bucket from one below the first
 * non-empty bucket to one above the last, each with its label right-aligned
 * in 16 columns, a bar of '@' forty columns wide scaled to the total, and the
 * count; negative counts draw the bar the other way.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dt_impl.h"

static long double
dt_fabsl(long double x)
{
	return x < 0 ? -x : x;
}

/*
 * A 64-bit value under normalize(), as DTrace's default layouts print it:
 * DTrace divides the value as unsigned (its (long long) cast of the value
 * meets an unsigned normalization factor), so a negative value divided by a
 * factor above 1 prints as a large positive number there too.
 */
static long long
dt_normalized(int64_t val, uint64_t normal)
{
	return (long long)((uint64_t)val / normal);
}

static void
dt_quantize_total(dtrace_hdl_t *dtp, int64_t datum, long double *total)
{
	long double val = dt_fabsl((long double)datum);

	if (dtp->dt_options[DTRACEOPT_AGGZOOM] == DTRACEOPT_UNSET) {
		*total += val;
		return;
	}
	val *= 1 / DT_AGGZOOM_MAX;
	if (*total < val)
		*total = val;
}

/* The bins a distribution shows and what its bars are scaled by. */
typedef struct dt_qrange {
	int first, last;      /* bins shown */
	int positives, negatives;
	long double total;
} dt_qrange_t;

/* The distribution header; agghist heads its keys, `width' wide, with "key". */
int
dt_print_quanthdr(dtrace_hdl_t *dtp, FILE *fp, int width)
{
	return dt_printf(dtp, fp, "\n%*s %41s %-9s\n", width ? width : 16, width ? "key" : "value",
	                 "------------- Distribution -------------", "count");
}

/* -x encoding=utf8 and aggpack draw with Unicode block elements (U+2581..U+258F). */
#define DT_UTF8_FULL 0x2588 /* a full block */
#define DT_UTF8_BASE 0x258f /* the thinnest left eighth; wider ones count down */
#define DT_UTF8_LEVELS 8
#define DT_PACK_BASE 0x2581 /* aggpack: the lowest of the eight rising blocks */

static int
dt_print_utf8(dtrace_hdl_t *dtp, FILE *fp, unsigned code)
{
	return dt_printf(dtp, fp, "%c%c%c", 0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f),
	                 0x80 | (code & 0x3f));
}

/* A positive bar in eighths of a column. */
static int
dt_print_quantline_utf8(dtrace_hdl_t *dtp, FILE *fp, int64_t val, uint64_t normal, long double total)
{
	static const char spaces[] = "                                        ";
	unsigned len = 40, i, whole, partial;
	long double f = (dt_fabsl((long double)val) * len) / total;

	whole = (unsigned)f;
	partial = (unsigned)((f - (long double)(unsigned)f) * (long double)DT_UTF8_LEVELS);
	if (dt_printf(dtp, fp, "|") != 0)
		return -1;
	for (i = 0; i < whole; i++) {
		if (dt_print_utf8(dtp, fp, DT_UTF8_FULL) != 0)
			return -1;
	}
	if (partial != 0) {
		if (dt_print_utf8(dtp, fp, DT_UTF8_BASE - (partial - 1)) != 0)
			return -1;
		i++;
	}
	return dt_printf(dtp, fp, "%s %-9lld\n", spaces + i, dt_normalized(val, normal));
}

static int
dt_print_quantline(dtrace_hdl_t *dtp, FILE *fp, int64_t val, uint64_t normal, const dt_qrange_t *r)
{
	long double total = r->total;
	int positives = r->positives, negatives = r->negatives;
	static const char ats[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
	static const char spaces[] = "                                        ";
	unsigned len = 40, depth;
	long long n = dt_normalized(val, normal);
	long double f;

	if (!negatives) {
		if (positives) {
			if (dtp->dt_encoding == DT_ENCODING_UTF8)
				return dt_print_quantline_utf8(dtp, fp, val, normal, total);
			f = (dt_fabsl((long double)val) * len) / total;
			depth = (unsigned)(f + 0.5);
		} else {
			depth = 0;
		}
		return dt_printf(dtp, fp, "|%s%s %-9lld\n", ats + len - depth, spaces + depth, n);
	}

	if (!positives) {
		f = (dt_fabsl((long double)val) * len) / total;
		depth = (unsigned)(f + 0.5);
		return dt_printf(dtp, fp, "%s%s| %-9lld\n", spaces + depth, ats + len - depth, n);
	}

	/* Both signs: half-width bars either side of a center line. */
	len /= 2;
	f = (dt_fabsl((long double)val) * len) / total;
	depth = (unsigned)(f + 0.5);
	if (val <= 0)
		return dt_printf(dtp, fp, "%s%s|%*s %-9lld\n", spaces + 40 - len + depth,
		                 ats + 40 - depth, (int)len, "", n);
	return dt_printf(dtp, fp, "%20s|%s%s %-9lld\n", "", ats + 40 - depth,
	                 spaces + 40 - len + depth, n);
}

/* agghist: a count() or sum() value as a bar scaled to its aggregation's total. */
int
dt_print_histline(dtrace_hdl_t *dtp, FILE *fp, int64_t val, uint64_t normal, long double total,
		  int positives, int negatives)
{
	dt_qrange_t r;

	memset(&r, 0, sizeof(r));
	r.total = total;
	r.positives = positives;
	r.negatives = negatives;
	return dt_print_quantline(dtp, fp, val, normal, &r);
}

/*
 * One bin either side of the non-empty ones: the first non-empty bin is
 * looked for among the first `nscan' bins (DTrace's quantize() leaves its
 * last bin out of that search), and when there is none the bins shown are
 * `efirst'..`elast'.  Then the header.
 */
static int
dt_quantize_range(dtrace_hdl_t *dtp, FILE *fp, const int64_t *data, int nscan, int nbins,
		  int efirst, int elast, dt_qrange_t *r)
{
	int i;

	memset(r, 0, sizeof(*r));
	while (r->first < nscan && data[r->first] == 0)
		r->first++;
	if (r->first == nscan) {
		r->first = efirst;
		r->last = elast;
	} else {
		if (r->first > 0)
			r->first--;
		r->last = nbins - 1;
		while (r->last > 0 && data[r->last] == 0)
			r->last--;
		if (r->last < nbins - 1)
			r->last++;
	}

	for (i = r->first; i <= r->last; i++) {
		r->positives |= data[i] > 0;
		r->negatives |= data[i] < 0;
		dt_quantize_total(dtp, data[i], &r->total);
	}
	return dt_print_quanthdr(dtp, fp, 0);
}

int
dt_print_quantize(dtrace_hdl_t *dtp, FILE *fp, const void *addr, size_t size, uint64_t normal)
{
	const int64_t *data = addr;
	dt_qrange_t r;
	int i;

	if (size != DTRACE_QUANTIZE_NBUCKETS * sizeof(uint64_t))
		return dt_set_errno(dtp, EDT_DMISMATCH);

	/* nothing (cleared, or only zero increments): show the bins around 0 */
	if (dt_quantize_range(dtp, fp, data, DTRACE_QUANTIZE_NBUCKETS - 1, DTRACE_QUANTIZE_NBUCKETS,
	                      DTRACE_QUANTIZE_ZEROBUCKET - 1, DTRACE_QUANTIZE_ZEROBUCKET + 1,
	                      &r) != 0)
		return -1;

	for (i = r.first; i <= r.last; i++) {
		if (dt_printf(dtp, fp, "%16lld ", (long long)DTRACE_QUANTIZE_BUCKETVAL(i)) != 0 ||
		    dt_print_quantline(dtp, fp, data[i], normal, &r) != 0)
			return -1;
	}
	return 0;
}

/*
 * lquantize() data: its parameters word (base, step, levels), then levels + 2
 * bins; the bins, or NULL (EDT_DMISMATCH) when the size does not fit.
 */
static const int64_t *
dt_lquantize_params(dtrace_hdl_t *dtp, const void *addr, size_t size, int *basep,
		    uint16_t *stepp, uint16_t *levelsp)
{
	uint64_t arg;

	if (size < sizeof(uint64_t))
		goto mismatch;
	arg = *(const uint64_t *)addr;
	*basep = DTRACE_LQUANTIZE_BASE(arg);
	*stepp = DTRACE_LQUANTIZE_STEP(arg);
	*levelsp = DTRACE_LQUANTIZE_LEVELS(arg);
	if (size - sizeof(uint64_t) != sizeof(uint64_t) * (size_t)(*levelsp + 2))
		goto mismatch;
	return (const int64_t *)addr + 1;
mismatch:
	(void)dt_set_errno(dtp, EDT_DMISMATCH);
	return NULL;
}

int
dt_print_lquantize(dtrace_hdl_t *dtp, FILE *fp, const void *addr, size_t size, uint64_t normal)
{
	const int64_t *data;
	int i, base;
	uint16_t step, levels;
	dt_qrange_t r;

	if ((data = dt_lquantize_params(dtp, addr, size, &base, &step, &levels)) == NULL)
		return -1;
	if (dt_quantize_range(dtp, fp, data, levels + 2, levels + 2, 0, 2, &r) != 0)
		return -1;

	for (i = r.first; i <= r.last; i++) {
		char c[32];
		int err;

		if (i == 0) {
			(void)snprintf(c, sizeof(c), "< %d", base);
			err = dt_printf(dtp, fp, "%16s ", c);
		} else if (i == levels + 1) {
			(void)snprintf(c, sizeof(c), ">= %lld", (long long)base + (long long)levels * step);
			err = dt_printf(dtp, fp, "%16s ", c);
		} else {
			err = dt_printf(dtp, fp, "%16lld ", (long long)base + (long long)(i - 1) * step);
		}
		if (err != 0 || dt_print_quantline(dtp, fp, data[i], normal, &r) != 0)
			return -1;
	}
	return 0;
}

int
dt_print_llquantize(dtrace_hdl_t *dtp, FILE *fp, const void *addr, size_t size, uint64_t normal)
{
	const int64_t *data = addr;
	int bin = 1, order, levels;
	uint16_t factor, low, high, nsteps;
	uint64_t value = 1, next, step; /* unsigned: factor^(high + 1) may pass INT64_MAX */
	dt_qrange_t r;
	uint64_t arg;
	char c[32];

	if (size < sizeof(uint64_t))
		return dt_set_errno(dtp, EDT_DMISMATCH);

	arg = (uint64_t)*data++;
	size -= sizeof(uint64_t);
	factor = DTRACE_LLQUANTIZE_FACTOR(arg);
	low = DTRACE_LLQUANTIZE_LOW(arg);
	high = DTRACE_LLQUANTIZE_HIGH(arg);
	nsteps = DTRACE_LLQUANTIZE_NSTEP(arg);

	if (size > INT32_MAX || size < 2 * sizeof(uint64_t) || factor < 2 || low >= high ||
	    nsteps == 0 || factor > nsteps)
		return dt_set_errno(dtp, EDT_DMISMATCH);

	levels = (int)(size / sizeof(uint64_t));
	if (dt_quantize_range(dtp, fp, data, levels, levels, 0, 1, &r) != 0)
		return -1;

	for (order = 0; order < low; order++)
		value *= factor;
	next = value * factor;
	step = next > nsteps ? next / nsteps : 1;

	if (r.first == 0) {
		(void)snprintf(c, sizeof(c), "< %lld", (long long)value);
		if (dt_printf(dtp, fp, "%16s ", c) != 0 ||
		    dt_print_quantline(dtp, fp, data[0], normal, &r) != 0)
			return -1;
	}

	while (order <= high && bin < levels) {
		if (bin >= r.first && bin <= r.last) {
			if (dt_printf(dtp, fp, "%16lld ", (long long)value) != 0 ||
			    dt_print_quantline(dtp, fp, data[bin], normal, &r) != 0)
				return -1;
		}
		bin++;
		if ((value += step) != next)
			continue;
		next = value * factor;
		step = next > nsteps ? next / nsteps : 1;
		order++;
	}

	if (r.last < bin || bin >= levels)
		return 0;

	(void)snprintf(c, sizeof(c), ">= %lld", (long long)value);
	if (dt_printf(dtp, fp, "%16s ", c) != 0)
		return -1;
	return dt_print_quantline(dtp, fp, data[bin], normal, &r);
}

/* --- aggpack ------------------------------------------------------------ */

/* Columns a bin's value takes in the packed header: at least 4. */
static int
dt_ndigits(long long val)
{
	long long cmp = 10;
	int n = 1;

	if (val < 0) {
		val = val == INT64_MIN ? INT64_MAX : -val;
		n++;
	}
	while (val > cmp && cmp > 0) {
		n++;
		cmp *= 10;
	}
	return n < 4 ? 4 : n;
}

/* quantize()'s bins shown packed: one either side of the aggregation's span. */
static void
dt_packed_bins(const dtrace_aggdata_t *aggdata, int *minp, int *maxp)
{
	int min = aggdata->dtada_minbin, max = aggdata->dtada_maxbin;

	if (min != 0 && min != DTRACE_QUANTIZE_ZEROBUCKET)
		min--;
	if (max < DTRACE_QUANTIZE_NBUCKETS - 1)
		max++;
	*minp = min;
	*maxp = max;
}

int
dt_print_quanthdr_packed(dtrace_hdl_t *dtp, FILE *fp, int width, const dtrace_aggdata_t *aggdata,
			 dtrace_actkind_t action)
{
	int min, max, minwidth, maxwidth, i;

	if (action == DTRACEAGG_QUANTIZE) {
		dt_packed_bins(aggdata, &min, &max);
		minwidth = dt_ndigits(DTRACE_QUANTIZE_BUCKETVAL(min));
		maxwidth = dt_ndigits(DTRACE_QUANTIZE_BUCKETVAL(max));
	} else {
		min = aggdata->dtada_minbin;
		max = aggdata->dtada_maxbin + 1;
		maxwidth = 8;
		minwidth = maxwidth - 1;
	}
	if (dt_printf(dtp, fp, "\n%*s %*s .", width, width > 0 ? "key" : "", minwidth, "min") != 0)
		return -1;
	for (i = min; i <= max; i++) {
		if (dt_printf(dtp, fp, "-") != 0)
			return -1;
	}
	return dt_printf(dtp, fp, ". %*s | count\n", -maxwidth, "max");
}

/*
 * One bin as one character, scaled to the line's total: a space for
 * nothing, "_" to "X" (or a rising block in UTF-8) for counts, "v" to "V"
 * for negative ones.  Without -x encoding, UTF-8 unless the terminal is
 * one known not to show it.
 */
static int
dt_print_packed(dtrace_hdl_t *dtp, FILE *fp, long double datum, long double total)
{
	static const char ascii[] = "__xxxxXX", neg[] = "vvvvVV";
	int utf8 = dtp->dt_encoding == DT_ENCODING_UTF8;

	if (dtp->dt_encoding == DT_ENCODING_UNSET) {
		const char *term = getenv("TERM");

		utf8 = term == NULL || (strcmp(term, "sun") != 0 && strcmp(term, "sun-color") != 0 &&
		                        strcmp(term, "dumb") != 0);
	}
	if (datum == 0)
		return dt_printf(dtp, fp, " ");
	if (datum < 0)
		return dt_printf(dtp, fp, "%c",
		                 neg[(unsigned)(dt_fabsl(datum * (sizeof(neg) - 2)) / total + 0.5)]);
	if (utf8)
		return dt_print_utf8(dtp, fp,
		                     DT_PACK_BASE +
		                         (unsigned)(((datum * (DT_UTF8_LEVELS - 1)) / total) + 0.5));
	return dt_printf(dtp, fp, "%c", ascii[(unsigned)((datum * (sizeof(ascii) - 2)) / total + 0.5)]);
}

/* The bins' characters and the count of all of them. */
static int
dt_print_packed_bins(dtrace_hdl_t *dtp, FILE *fp, const int64_t *data, int min, int max,
		     long double *countp)
{
	long double total = 0, count = 0;
	int i;

	for (i = min; i <= max; i++) {
		dt_quantize_total(dtp, data[i], &total);
		count += data[i];
	}
	for (i = min; i <= max; i++) {
		if (dt_print_packed(dtp, fp, data[i], total) != 0)
			return -1;
	}
	*countp = count;
	return 0;
}

int
dt_print_quantize_packed(dtrace_hdl_t *dtp, FILE *fp, const void *addr, size_t size,
			 const dtrace_aggdata_t *aggdata)
{
	const int64_t *data = addr;
	long double count;
	int64_t minval, maxval;
	int min, max;

	if (size != DTRACE_QUANTIZE_NBUCKETS * sizeof(uint64_t))
		return dt_set_errno(dtp, EDT_DMISMATCH);
	dt_packed_bins(aggdata, &min, &max);
	minval = DTRACE_QUANTIZE_BUCKETVAL(min);
	maxval = DTRACE_QUANTIZE_BUCKETVAL(max);
	if (dt_printf(dtp, fp, " %*lld :", dt_ndigits(minval), (long long)minval) != 0 ||
	    dt_print_packed_bins(dtp, fp, data, min, max, &count) != 0)
		return -1;
	return dt_printf(dtp, fp, ": %*lld | %lld\n", -dt_ndigits(maxval), (long long)maxval,
	                 (long long)count);
}

/* lquantize() packed: always its whole range, underflow and overflow bins included. */
int
dt_print_lquantize_packed(dtrace_hdl_t *dtp, FILE *fp, const void *addr, size_t size,
			  const dtrace_aggdata_t *aggdata)
{
	const int64_t *data;
	long double count;
	uint16_t step, levels;
	char c[32];
	int base;

	(void)aggdata;
	if ((data = dt_lquantize_params(dtp, addr, size, &base, &step, &levels)) == NULL)
		return -1;

	(void)snprintf(c, sizeof(c), "< %d", base);
	if (dt_printf(dtp, fp, "%8s :", c) != 0 ||
	    dt_print_packed_bins(dtp, fp, data, 0, levels + 1, &count) != 0)
		return -1;
	(void)snprintf(c, sizeof(c), ">= %lld", (long long)base + (long long)levels * step);
	return dt_printf(dtp, fp, ": %-8s | %lld\n", c, (long long)count);
}

static unsigned __int128
dt_isqrt128(unsigned __int128 x)
{
	unsigned __int128 res = 0, bit = (unsigned __int128)1 << 126;

	while (bit > x)
		bit >>= 2;
	while (bit != 0) {
		if (x >= res + bit) {
			x -= res + bit;
			res = (res >> 1) + bit;
		} else {
			res >>= 1;
		}
		bit >>= 2;
	}
	return res;
}

/*
 * stddev() data: count, sum, and the sum of squares as a 128-bit value
 * (low word first).  The result is sqrt(avg(x^2) - avg(x)^2) in integers,
 * each average taken after dividing by the normalization.
 */
uint64_t
dt_stddev(const uint64_t *data, uint64_t normal)
{
	unsigned __int128 sumsq, avgsq, sqavg;
	uint64_t uavg;
	int64_t avg;

	if (data[0] == 0 || normal == 0)
		return 0;
	sumsq = ((unsigned __int128)data[3] << 64) | data[2];
	avgsq = sumsq / normal / normal / data[0];
	avg = dt_sdiv64(dt_sdiv64((int64_t)data[1], (int64_t)normal), (int64_t)data[0]);
	uavg = avg < 0 ? 0 - (uint64_t)avg : (uint64_t)avg;
	sqavg = (unsigned __int128)uavg * uavg;
	if (avgsq < sqavg)
		return 0;
	return (uint64_t)dt_isqrt128(avgsq - sqavg);
}

/*
 * Bytes that look like a string (printable characters, then NULs to the
 * end) print as one; anything else as a hex and ASCII dump.
 */
int
dt_print_bytes(dtrace_hdl_t *dtp, FILE *fp, const char *c, size_t nbytes, int width, int quiet,
	       int forceraw)
{
	const int margin = 5;
	size_t i, j;

	if (nbytes == 0)
		return 0;

	if (forceraw || dtp->dt_options[DTRACEOPT_RAWBYTES] != DTRACEOPT_UNSET)
		goto raw;

	for (i = 0; i < nbytes; i++) {
		unsigned char u = (unsigned char)c[i];

		/* backspace and bell count as printable: terminals act on them */
		if (isprint(u) || isspace(u) || c[i] == '\b' || c[i] == '\a')
			continue;
		if (c[i] == '\0' && i > 0) {
			for (j = i + 1; j < nbytes; j++) {
				if (c[j] != '\0')
					break;
			}
			if (j != nbytes)
				break;
			if (quiet)
				return dt_printf(dtp, fp, "%s", c);
			return dt_printf(dtp, fp, " %s%*s", width < 0 ? " " : "", width, c);
		}
		break;
	}

	if (i == nbytes) {
		/* all printable, no terminating NUL: still a string */
		char *s = dt_recstr(dtp, c, nbytes);
		int rval;

		if (s == NULL)
			return -1;
		rval = dt_printf(dtp, fp, "  %-*s", width, s);
		free(s);
		return rval;
	}

raw:
	if (dt_printf(dtp, fp, "\n%*s      ", margin, "") != 0)
		return -1;
	for (i = 0; i < 16; i++) {
		if (dt_printf(dtp, fp, "  %c", "0123456789abcdef"[i]) != 0)
			return -1;
	}
	if (dt_printf(dtp, fp, "  0123456789abcdef\n") != 0)
		return -1;

	for (i = 0; i < nbytes; i += 16) {
		if (dt_printf(dtp, fp, "%*s%5zx:", margin, "", i) != 0)
			return -1;
		for (j = i; j < i + 16 && j < nbytes; j++) {
			if (dt_printf(dtp, fp, " %02x", (unsigned char)c[j]) != 0)
				return -1;
		}
		while (j++ % 16) {
			if (dt_printf(dtp, fp, "   ") != 0)
				return -1;
		}
		if (dt_printf(dtp, fp, "  ") != 0)
			return -1;
		for (j = i; j < i + 16 && j < nbytes; j++) {
			if (dt_printf(dtp, fp, "%c", c[j] < ' ' || c[j] > '~' ? '.' : c[j]) != 0)
				return -1;
		}
		if (dt_printf(dtp, fp, "\n") != 0)
			return -1;
	}
	return 0;
}

static int
dt_stackindent(dtrace_hdl_t *dtp)
{
	dtrace_optval_t v = dtp->dt_options[DTRACEOPT_STACKINDENT];

	return v != DTRACEOPT_UNSET ? (int)v : DT_STACKINDENT;
}

/* "mod`sym+0x1c", "mod`sym", "mod`0x..." or "0x..." for pc in process pid */
static void
dt_frame_name(dtrace_hdl_t *dtp, int pid, uint64_t pc, char *c, size_t len)
{
	dt_syminfo_t si;

	if (dt_symtab_lookup(dtp, pid, pc, &si) == 0) {
		if (si.dts_hassym && pc > si.dts_value)
			(void)snprintf(c, len, "%s`%s+0x%llx", si.dts_object, si.dts_name,
			               (unsigned long long)(pc - si.dts_value));
		else if (si.dts_hassym)
			(void)snprintf(c, len, "%s`%s", si.dts_object, si.dts_name);
		else
			(void)snprintf(c, len, "%s`0x%llx", si.dts_object, (unsigned long long)pc);
	} else {
		(void)snprintf(c, len, "0x%llx", (unsigned long long)pc);
	}
}

int
dt_print_stack(dtrace_hdl_t *dtp, FILE *fp, const char *format, const char *addr, int depth,
	       int size)
{
	int i, indent = dt_stackindent(dtp);
	char c[2048];
	uint64_t pc;

	if (dt_printf(dtp, fp, "\n") != 0)
		return -1;
	if (format == NULL)
		format = "%s";

	for (i = 0; i < depth; i++) {
		switch (size) {
		case sizeof(uint32_t):
			pc = *(const uint32_t *)addr;
			break;
		case sizeof(uint64_t):
			pc = *(const uint64_t *)addr;
			break;
		default:
			return dt_set_errno(dtp, EDT_BADSTACKPC);
		}
		if (pc == 0)
			break;
		addr += size;
		dt_frame_name(dtp, 0, pc, c, sizeof(c));
		if (dt_printf(dtp, fp, "%*s", indent, "") != 0 || dt_printf(dtp, fp, format, c) != 0 ||
		    dt_printf(dtp, fp, "\n") != 0)
			return -1;
	}
	return 0;
}

/*
 * ustack(): the pid, the frames, then (with a helper string table) one
 * string per frame that names frames the symbol tables cannot.  The table
 * is strsize bytes of record data: no string is read past its end, NUL or
 * not.
 */
int
dt_print_ustack(dtrace_hdl_t *dtp, FILE *fp, const char *format, const char *addr, uint64_t arg)
{
	const uint64_t *pc = (const uint64_t *)addr;
	uint32_t depth = DTRACE_USTACK_NFRAMES(arg);
	uint32_t strsize = DTRACE_USTACK_STRSIZE(arg), stroff = 0;
	const char *strbase = addr + (depth + 1) * sizeof(uint64_t);
	int i, indent = dt_stackindent(dtp), pid;
	char c[2048];

	if (depth == 0)
		return 0;
	pid = (int)*pc++;
	if (dt_printf(dtp, fp, "\n") != 0)
		return -1;
	if (format == NULL)
		format = "%s";

	for (i = 0; i < (int)depth && pc[i] != 0; i++) {
		const char *str = stroff < strsize ? strbase + stroff : NULL;
		size_t len = str != NULL ? strnlen(str, strsize - stroff) : 0;
		dt_syminfo_t si;

		if (dt_printf(dtp, fp, "%*s", indent, "") != 0)
			return -1;
		if (dt_symtab_lookup(dtp, pid, pc[i], &si) == 0 && si.dts_hassym) {
			dt_frame_name(dtp, pid, pc[i], c, sizeof(c));
		} else if (len != 0 && str[0] != '@') {
			(void)snprintf(c, sizeof(c), "%.*s", (int)len, str);
		} else {
			dt_frame_name(dtp, pid, pc[i], c, sizeof(c));
		}
		if (dt_printf(dtp, fp, format, c) != 0 || dt_printf(dtp, fp, "\n") != 0)
			return -1;

		if (len != 0 && str[0] == '@') {
			/* an annotation, shown under the frame */
			(void)snprintf(c, sizeof(c), "  [ %.*s ]", (int)len - 1, &str[1]);
			if (dt_printf(dtp, fp, "%*s", indent, "") != 0 ||
			    dt_printf(dtp, fp, format, c) != 0 || dt_printf(dtp, fp, "\n") != 0)
				return -1;
		}
		if (str != NULL)
			stroff += (uint32_t)len + 1;
	}
	return 0;
}

int
dt_print_sym(dtrace_hdl_t *dtp, FILE *fp, const char *format, const char *addr)
{
	uint64_t pc = *(const uint64_t *)addr;
	dt_syminfo_t si;
	char c[1024];

	if (format == NULL)
		format = "  %-50s";
	if (dt_symtab_lookup(dtp, 0, pc, &si) == 0) {
		if (si.dts_hassym)
			(void)snprintf(c, sizeof(c), "%s`%s", si.dts_object, si.dts_name);
		else
			(void)snprintf(c, sizeof(c), "%s`0x%llx", si.dts_object, (unsigned long long)pc);
	} else {
		(void)snprintf(c, sizeof(c), "0x%llx", (unsigned long long)pc);
	}
	return dt_printf(dtp, fp, format, c);
}

/* mod() and umod(): the object holding pc in process pid (0: this one). */
static int
dt_print_object(dtrace_hdl_t *dtp, FILE *fp, const char *format, int pid, uint64_t pc)
{
	dt_syminfo_t si;
	char c[1024];

	if (format == NULL)
		format = "  %-50s";
	if (dt_symtab_lookup(dtp, pid, pc, &si) == 0)
		(void)snprintf(c, sizeof(c), "%s", si.dts_object);
	else
		(void)snprintf(c, sizeof(c), "0x%llx", (unsigned long long)pc);
	return dt_printf(dtp, fp, format, c);
}

int
dt_print_mod(dtrace_hdl_t *dtp, FILE *fp, const char *format, const char *addr)
{
	return dt_print_object(dtp, fp, format, 0, *(const uint64_t *)addr);
}

int
dt_print_usym(dtrace_hdl_t *dtp, FILE *fp, const char *addr, dtrace_actkind_t act)
{
	uint64_t pid = ((const uint64_t *)addr)[0];
	uint64_t pc = ((const uint64_t *)addr)[1];
	dt_syminfo_t si;
	char c[1024];

	/* usym() names the function, uaddr() the exact address */
	if (act == DTRACEACT_USYM && dt_symtab_lookup(dtp, (int)pid, pc, &si) == 0 && si.dts_hassym)
		pc = si.dts_value;
	(void)dtrace_uaddr2str(dtp, (int)pid, pc, c, sizeof(c));
	return dt_printf(dtp, fp, "  %-50s", c);
}

int
dt_print_umod(dtrace_hdl_t *dtp, FILE *fp, const char *format, const char *addr)
{
	const uint64_t *v = (const uint64_t *)addr;

	return dt_print_object(dtp, fp, format, (int)v[0], v[1]);
}

/* A quantize(), lquantize() or llquantize() value, as its action says. */
int
dt_print_distribution(dtrace_hdl_t *dtp, FILE *fp, dtrace_actkind_t act, const void *addr,
		      size_t size, uint64_t normal)
{
	switch (act) {
	case DTRACEAGG_QUANTIZE:
		return dt_print_quantize(dtp, fp, addr, size, normal);
	case DTRACEAGG_LQUANTIZE:
		return dt_print_lquantize(dtp, fp, addr, size, normal);
	case DTRACEAGG_LLQUANTIZE:
		return dt_print_llquantize(dtp, fp, addr, size, normal);
	default:
		return dt_set_errno(dtp, EDT_DMISMATCH);
	}
}

/* One key or value of an aggregation printed without a format. */
int
dt_print_datum(dtrace_hdl_t *dtp, FILE *fp, const dtrace_recdesc_t *rec, const char *addr,
	       size_t size, uint64_t normal, int packed)
{
	const int64_t *data = (const int64_t *)addr;

	switch (rec->dtrd_action) {
	case DTRACEACT_STACK:
		if (rec->dtrd_arg == 0)
			return dt_set_errno(dtp, EDT_DMISMATCH);
		return dt_print_stack(dtp, fp, NULL, addr, (int)rec->dtrd_arg,
		                      (int)(rec->dtrd_size / rec->dtrd_arg));
	case DTRACEACT_USTACK:
	case DTRACEACT_JSTACK:
		return dt_print_ustack(dtp, fp, NULL, addr, rec->dtrd_arg);
	case DTRACEACT_USYM:
	case DTRACEACT_UADDR:
		return dt_print_usym(dtp, fp, addr, rec->dtrd_action);
	case DTRACEACT_UMOD:
		return dt_print_umod(dtp, fp, NULL, addr);
	case DTRACEACT_SYM:
		return dt_print_sym(dtp, fp, NULL, addr);
	case DTRACEACT_MOD:
		return dt_print_mod(dtp, fp, NULL, addr);
	case DTRACEAGG_QUANTIZE:
	case DTRACEAGG_LQUANTIZE:
	case DTRACEAGG_LLQUANTIZE:
		return dt_print_distribution(dtp, fp, rec->dtrd_action, addr, size, normal);
	case DTRACEAGG_AVG:
		return dt_printf(dtp, fp, " %16lld",
		                 (long long)dt_sdiv64(dt_sdiv64(data[1], (int64_t)normal), data[0]));
	case DTRACEAGG_STDDEV:
		return dt_printf(dtp, fp, " %16llu",
		                 data[0] ? (unsigned long long)dt_stddev((const uint64_t *)addr, normal)
		                         : 0);
	default:
		break;
	}

	/* agghist's keys: strings 16 wide and right-justified like the numbers */
	switch (size) {
	case sizeof(uint64_t):
		return dt_printf(dtp, fp, " %16lld", dt_normalized(*(const int64_t *)addr, normal));
	case sizeof(uint32_t):
		return dt_printf(dtp, fp, " %8d", (int)(*(const uint32_t *)addr / (uint32_t)normal));
	case sizeof(uint16_t):
		return dt_printf(dtp, fp, " %5d", (int)(*(const uint16_t *)addr / (uint32_t)normal));
	case sizeof(uint8_t):
		return dt_printf(dtp, fp, " %3d", (int)(*(const uint8_t *)addr / (uint32_t)normal));
	default:
		return dt_print_bytes(dtp, fp, addr, size, packed ? 16 : -50, 0, 0);
	}
}
