/*
 * core/buffers/aggregation.c: aggregating in probe context, per CPU.
 *
 * fw's ECB walker calls dtrace_aggregate() for each aggregating action, after
 * the key tuple's actions have recorded into the ECB's reserved (never
 * committed) space.  We find the tuple in the CPU's aggregation buffer -- a
 * hash index kept at the top of the active half -- or append a new entry at
 * the bottom, and apply the function to the entry's value.  The bottom of the
 * buffer is therefore always a run of entries laid out exactly as DTrace's
 * consumer reads them (AGGSNAP copies it verbatim after a switch, and the
 * switch gives the CPU an empty index: the consumer accumulates).
 *
 * Probe context: no allocation, no lock.  Loops are bounded: the tuple walk
 * by the ECB's action list, string scans by their record size, and a hash
 * chain by the number of keys in the buffer (checked, so even a corrupted
 * chain cannot loop).  Only the owning CPU writes its aggregation buffer
 * (cross-calls that switch it run with that CPU exclusive), so nothing here
 * is atomic.
 *
 * Keys are hashed with xxHash (dtrace_hash.h), one piece per tuple member,
 * strings up to their NUL; they compare equal when every member's bytes do,
 * strings up to the NUL, whatever the aggregation id (as DTrace: two clauses
 * feeding the same @var share entries).  New entries store strings
 * zero-padded after the NUL and zero the gaps between members, so what the
 * consumer reads is deterministic.
 */
#include "../dtrace_hash.h"
#include "../dtrace_impl.h"

/*
 * Index entry of one key, below the bucket array at the top of the active
 * half (see dtrace_aggbuffer_reset in buffer.c).  Offsets and indexes rather than
 * pointers keep it 24 bytes and position-independent.
 */
typedef struct dtrace_aggkey {
	uint64_t dtak_data;	/* offset of the entry in dtb_tomax */
	uint32_t dtak_next;	/* index + 1 of the next key on the chain, or 0 */
	uint32_t dtak_hashval;
	uint32_t dtak_size;	/* key bytes (aggregation id included) */
	uint32_t dtak_action;	/* aggregating function: dta_kind - DTRACEACT_AGGREGATION */
} dtrace_aggkey_t;

/* --- The aggregating functions ------------------------------------------- */

void
dtrace_aggregate_count(uint64_t *value, uint64_t nval, uint64_t arg)
{
	(void)nval;
	(void)arg;
	value[0]++;
}

void
dtrace_aggregate_sum(uint64_t *value, uint64_t nval, uint64_t arg)
{
	(void)arg;
	value[0] += nval;
}

void
dtrace_aggregate_min(uint64_t *value, uint64_t nval, uint64_t arg)
{
	(void)arg;
	if ((int64_t)nval < (int64_t)value[0])
		value[0] = nval;
}

void
dtrace_aggregate_max(uint64_t *value, uint64_t nval, uint64_t arg)
{
	(void)arg;
	if ((int64_t)nval > (int64_t)value[0])
		value[0] = nval;
}

void
dtrace_aggregate_avg(uint64_t *value, uint64_t nval, uint64_t arg)
{
	(void)arg;
	value[0]++;
	value[1] += nval;
}

void
dtrace_aggregate_stddev(uint64_t *value, uint64_t nval, uint64_t arg)
{
	/* |nval| squared needs 128 bits; value[2] is the low word, [3] the high */
	uint64_t a = (int64_t)nval < 0 ? (uint64_t)0 - nval : nval;
	uint64_t alo = a & 0xffffffffu, ahi = a >> 32;
	uint64_t lolo = alo * alo, lohi = alo * ahi, hihi = ahi * ahi;
	uint64_t mid = (lolo >> 32) + ((lohi & 0xffffffffu) << 1);
	uint64_t lo = (lolo & 0xffffffffu) | (mid << 32);
	uint64_t hi = hihi + ((lohi >> 32) << 1) + (mid >> 32);

	(void)arg;
	value[0]++;
	value[1] += nval;
	value[2] += lo;
	value[3] += hi + (value[2] < lo);
}

void
dtrace_aggregate_quantize(uint64_t *value, uint64_t nval, uint64_t incr)
{
	int64_t val = (int64_t)nval;
	int bucket;

	/*
	 * DTrace's buckets: ZERO counts 0; ZERO + 1 + k counts [2^k, 2^(k+1));
	 * ZERO - 1 - k counts (-2^(k+1), -2^k], and bucket 0 everything at or
	 * below -2^62.  A count of leading zeros finds the power of two.
	 */
	if (val > 0) {
		bucket = DTRACE_QUANTIZE_ZEROBUCKET + 64 - __builtin_clzll(nval);
	} else if (val == 0) {
		bucket = DTRACE_QUANTIZE_ZEROBUCKET;
	} else {
		int lg = 63 - __builtin_clzll((uint64_t)0 - nval);

		bucket = DTRACE_QUANTIZE_ZEROBUCKET - 1 - lg;
		if (bucket < 0)
			bucket = 0;
	}
	value[bucket] += incr;
}

void
dtrace_aggregate_lquantize(uint64_t *value, uint64_t nval, uint64_t incr)
{
	uint64_t arg = value[0];
	uint64_t *lquanta = value + 1;
	int32_t base = DTRACE_LQUANTIZE_BASE(arg);
	uint16_t step = DTRACE_LQUANTIZE_STEP(arg);
	uint16_t levels = DTRACE_LQUANTIZE_LEVELS(arg);
	/* DTrace quantizes the value as a 32-bit int; the level is computed in
	 * 64 bits so that a value far above base lands in the overflow bucket
	 * instead of wrapping. */
	int64_t val = (int32_t)nval, level;

	if (step == 0 || val < base) {
		lquanta[0] += incr; /* underflow */
		return;
	}
	level = (val - base) / step;
	if (level < levels)
		lquanta[level + 1] += incr;
	else
		lquanta[levels + 1] += incr; /* overflow */
}

int
dtrace_aggregate_llquantize_bucket(uint16_t factor, uint16_t low, uint16_t high, uint16_t nsteps,
				   int64_t value)
{
	uint64_t this = 1, last;
	int64_t base = 1;

	if (factor < 2 || nsteps == 0)
		return 0;
	for (uint32_t order = 0; order < low; order++) {
		if (this > (uint64_t)INT64_MAX / factor)
			return 0; /* factor^low beyond 64 bits: every value is below */
		this *= factor;
	}
	/* Below factor^low: the zeroth bucket. */
	if (value < (int64_t)this)
		return 0;
	last = this;
	if (this > (uint64_t)INT64_MAX / factor)
		return 1; /* the first magnitude is unbounded (never validated) */
	this *= factor;

	for (uint32_t order = low; order <= high; order++) {
		uint64_t nbuckets = this > nsteps ? nsteps : this;

		/*
		 * As DTrace: in the magnitude whose successor does not fit in
		 * 64 bits, every value goes to its top bucket.  (DTrace detects
		 * it by signed wrap-around, we by the exact bound; they differ
		 * only for parameters the validator refuses.)
		 */
		if (this > (uint64_t)INT64_MAX / factor)
			value = (int64_t)(this - 1);
		if ((uint64_t)value < this)
			return (int)(base + (int64_t)(((uint64_t)value - last) / (this / nbuckets)));
		base += (int64_t)(nbuckets - nbuckets / factor);
		last = this;
		this *= factor;
	}
	/* At or above factor^(high + 1): the top bucket. */
	return (int)base;
}

void
dtrace_aggregate_llquantize(uint64_t *value, uint64_t nval, uint64_t incr)
{
	uint64_t arg = value[0];

	value[1 + dtrace_aggregate_llquantize_bucket(
			  DTRACE_LLQUANTIZE_FACTOR(arg), DTRACE_LLQUANTIZE_LOW(arg),
			  DTRACE_LLQUANTIZE_HIGH(arg), DTRACE_LLQUANTIZE_NSTEP(arg), (int64_t)nval)] +=
		incr;
}

/* Apply function `func` (DTRACEAGG_* - DTRACEACT_AGGREGATION). */
static inline void
dtrace_aggregate_apply(uint32_t func, uint64_t *value, uint64_t nval, uint64_t arg)
{
	switch (func + DTRACEACT_AGGREGATION) {
	case DTRACEAGG_COUNT:
		value[0]++;
		break;
	case DTRACEAGG_SUM:
		value[0] += nval;
		break;
	case DTRACEAGG_MIN:
		dtrace_aggregate_min(value, nval, arg);
		break;
	case DTRACEAGG_MAX:
		dtrace_aggregate_max(value, nval, arg);
		break;
	case DTRACEAGG_AVG:
		dtrace_aggregate_avg(value, nval, arg);
		break;
	case DTRACEAGG_STDDEV:
		dtrace_aggregate_stddev(value, nval, arg);
		break;
	case DTRACEAGG_QUANTIZE:
		dtrace_aggregate_quantize(value, nval, arg);
		break;
	case DTRACEAGG_LQUANTIZE:
		dtrace_aggregate_lquantize(value, nval, arg);
		break;
	case DTRACEAGG_LLQUANTIZE:
		dtrace_aggregate_llquantize(value, nval, arg);
		break;
	default:
		break;
	}
}

/* --- Keys ---------------------------------------------------------------- */

static inline bool
dtrace_act_isstring(const dtrace_action_t *act)
{
	return act->dta_kind == DTRACEACT_DIFEXPR && act->dta_difo != NULL &&
	       act->dta_difo->dtdo_rtype.dtdt_kind == DIF_TYPE_STRING;
}

/* Bytes of a string member up to (not including) its NUL, within size. */
static inline uint32_t
dtrace_aggkey_strlen(const char *s, uint32_t size)
{
	uint32_t n = 0;

	while (n < size && s[n] != '\0')
		n++;
	return n;
}

/*
 * Walk the key members of `agg`: every tuple action from dtag_first up to
 * (not including) the aggregating action that records bytes.  `limit` bounds
 * the walk even if the list were malformed.
 */
#define DTRACE_AGGKEY_FOREACH(agg, act, limit)                                                     \
	for (act = (agg)->dtag_first, limit = 0;                                                   \
	     act != NULL && act != &(agg)->dtag_action && act->dta_intuple &&                     \
	     limit < DTRACE_ACTIONS_MAX;                                                           \
	     act = act->dta_next, limit++)

/*
 * Equal bytes?  Keys are short (an 8-byte variable id, an int or two), where
 * a libc memcmp call costs more than the comparison: compare in words.
 */
static inline bool
dtrace_aggkey_bytes_equal(const char *a, const char *b, uint32_t n)
{
	uint64_t x, y;

	for (; n >= 8; n -= 8, a += 8, b += 8) {
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return false;
	}
	if (n >= 4) {
		uint32_t u, v;

		memcpy(&u, a, 4);
		memcpy(&v, b, 4);
		if (u != v)
			return false;
		n -= 4;
		a += 4;
		b += 4;
	}
	for (; n > 0; n--)
		if (*a++ != *b++)
			return false;
	return true;
}

static bool
dtrace_aggkey_equal(const dtrace_aggregation_t *agg, const char *kdata, const char *data,
		    uint32_t size)
{
	const dtrace_action_t *act;
	uint32_t limit;

	DTRACE_AGGKEY_FOREACH(agg, act, limit) {
		uint32_t i = act->dta_rec.dtrd_offset - agg->dtag_base;
		uint32_t n = act->dta_rec.dtrd_size;

		if (n == 0)
			continue;
		if (i > size || n > size - i)
			return false;
		if (dtrace_act_isstring(act)) {
			for (uint32_t j = 0; j < n; j++) {
				if (kdata[i + j] != data[i + j])
					return false;
				if (data[i + j] == '\0')
					break;
			}
		} else if (!dtrace_aggkey_bytes_equal(kdata + i, data + i, n)) {
			return false;
		}
	}
	return true;
}

/*
 * The key members of one firing, gathered in a single walk of the tuple: the
 * offset and length of each (a string's up to its NUL) and its record size.
 * Keys of more members than fit here fall back to walking the actions again.
 */
#define DTRACE_AGGKEY_NMEMB 16

typedef struct dtrace_aggkey_memb {
	uint32_t dtam_offset; /* from dtag_base */
	uint32_t dtam_len;    /* bytes that count */
	uint32_t dtam_size;   /* record bytes (> len: a string, zero-padded) */
} dtrace_aggkey_memb_t;

static void
dtrace_aggkey_copy(const dtrace_aggregation_t *agg, char *kdata, const char *data, uint32_t size)
{
	const dtrace_action_t *act;
	uint32_t limit;

	DTRACE_AGGKEY_FOREACH(agg, act, limit) {
		uint32_t i = act->dta_rec.dtrd_offset - agg->dtag_base;
		uint32_t n = act->dta_rec.dtrd_size;

		if (n == 0 || i > size || n > size - i)
			continue;
		if (dtrace_act_isstring(act))
			n = dtrace_aggkey_strlen(data + i, n);
		memcpy(kdata + i, data + i, n);
	}
}

/*
 * Does the key index of a (checked) copy of an aggregation buffer's header
 * hold together: the bucket array inside the buffer, the key entries just
 * below it, the data below them?  Then every bucket, key number and key
 * entry dtrace_aggregate() reaches is inside the buffer.
 */
static bool
dtrace_aggbuf_index_ok(const dtrace_buffer_t *b)
{
	uint64_t size = b->dtb_size, nb = (uint64_t)b->dtb_agg_hashmask + 1;

	if (b->dtb_agg_free == 0)
		return true; /* no index (too small): dtrace_aggregate drops */
	return (nb & (nb - 1)) == 0 && b->dtb_agg_hash <= size &&
	       nb <= (size - b->dtb_agg_hash) / sizeof(uint32_t) && (b->dtb_agg_hash & 7) == 0 &&
	       b->dtb_agg_free <= b->dtb_agg_hash &&
	       b->dtb_agg_hash - b->dtb_agg_free ==
		       (uint64_t)b->dtb_agg_nkeys * sizeof(dtrace_aggkey_t) &&
	       b->dtb_offset <= b->dtb_agg_free;
}

uint32_t
dtrace_aggregate_checked(dtrace_aggregation_t *agg, dtrace_buffer_t *dbuf, intptr_t offset,
			 dtrace_buffer_t *buf, const dtrace_bufgeom_t *g, uint64_t expr,
			 uint64_t arg)
{
	dtrace_buffer_t b;
	uint32_t rv;

	if (buf == NULL || g == NULL)
		return dtrace_aggregate(agg, dbuf, offset, buf, expr, arg);
	/* one read of each field aggregating uses; only the copy counts */
	b = (dtrace_buffer_t){.dtb_offset = buf->dtb_offset,
			      .dtb_flags = buf->dtb_flags,
			      .dtb_drops = buf->dtb_drops,
			      .dtb_tomax = buf->dtb_tomax,
			      .dtb_agg_hash = buf->dtb_agg_hash,
			      .dtb_agg_free = buf->dtb_agg_free,
			      .dtb_agg_hashmask = buf->dtb_agg_hashmask,
			      .dtb_agg_nkeys = buf->dtb_agg_nkeys};
	if (!dtrace_bufgeom_check(g, &b) || !dtrace_aggbuf_index_ok(&b)) {
		dtrace_buffer_drop(buf);
		return 0;
	}
	rv = dtrace_aggregate(agg, dbuf, offset, &b, expr, arg);
	buf->dtb_offset = b.dtb_offset;
	buf->dtb_drops = b.dtb_drops;
	buf->dtb_agg_free = b.dtb_agg_free;
	buf->dtb_agg_nkeys = b.dtb_agg_nkeys;
	return rv;
}

uint32_t
dtrace_aggregate(dtrace_aggregation_t *agg, dtrace_buffer_t *dbuf, intptr_t offset,
		 dtrace_buffer_t *buf, uint64_t expr, uint64_t arg)
{
	const dtrace_recdesc_t *rec = &agg->dtag_action.dta_rec;
	uint32_t func = (uint32_t)(agg->dtag_action.dta_kind - DTRACEACT_AGGREGATION);
	uint32_t size = rec->dtrd_offset - agg->dtag_base; /* key bytes */
	uint64_t fsize = (uint64_t)size + rec->dtrd_size;  /* key and value */
	dtrace_aggkey_memb_t memb[DTRACE_AGGKEY_NMEMB];
	uint32_t nmemb = 0, limit, hashval, *bucket, k, steps;
	const dtrace_action_t *act;
	bool overflow = false;
	dtrace_aggkey_t *keys, *key;
	uint64_t hash = 0, offs;
	const char *data;
	char *tomax, *kdata;

	if (buf == NULL)
		return 0;
	if (!agg->dtag_hasarg)
		arg = 1; /* quantize()'s increment when none was given */
	if ((tomax = buf->dtb_tomax) == NULL || buf->dtb_agg_free == 0) {
		dtrace_buffer_drop(buf);
		return 0;
	}
	data = dbuf->dtb_tomax + offset + agg->dtag_base;

	/* Hash every member, strings up to their NUL; not the aggregation id. */
	DTRACE_AGGKEY_FOREACH(agg, act, limit) {
		uint32_t i = act->dta_rec.dtrd_offset - agg->dtag_base;
		uint32_t full = act->dta_rec.dtrd_size, n = full;

		if (n == 0 || i > size || n > size - i)
			continue;
		if (dtrace_act_isstring(act))
			n = dtrace_aggkey_strlen(data + i, n);
		hash = dtrace_hash64(data + i, n, hash);
		if (nmemb < DTRACE_AGGKEY_NMEMB)
			memb[nmemb++] = (dtrace_aggkey_memb_t){i, n, full};
		else
			overflow = true;
	}
	hashval = (uint32_t)hash;

	keys = (dtrace_aggkey_t *)(void *)(tomax + buf->dtb_agg_hash);
	bucket = (uint32_t *)(void *)(tomax + buf->dtb_agg_hash) +
		 ((hash ^ (hash >> 32)) & buf->dtb_agg_hashmask);

	/* At most nkeys steps: a chain never holds more keys than exist. */
	for (k = *bucket, steps = 0; k != 0 && k <= buf->dtb_agg_nkeys && steps < buf->dtb_agg_nkeys;
	     k = key->dtak_next, steps++) {
		uint64_t kdoff;

		key = &keys[-(int64_t)k];
		if (key->dtak_hashval != hashval || key->dtak_size != size)
			continue;
		/* the entry's data below the index and 8-aligned, or the index
		 * is not the core's: drop rather than follow it */
		kdoff = key->dtak_data;
		if ((kdoff & 7) != 0 || kdoff > buf->dtb_offset || fsize > buf->dtb_offset - kdoff) {
			dtrace_buffer_drop(buf);
			return 0;
		}
		kdata = tomax + kdoff;
		if (overflow) {
			if (!dtrace_aggkey_equal(agg, kdata, data, size))
				continue;
		} else {
			uint32_t m;

			/* stored strings are zero-padded: equal lengths show as a NUL */
			for (m = 0; m < nmemb; m++) {
				const dtrace_aggkey_memb_t *mb = &memb[m];

				if (!dtrace_aggkey_bytes_equal(kdata + mb->dtam_offset,
							       data + mb->dtam_offset, mb->dtam_len) ||
				    (mb->dtam_len < mb->dtam_size &&
				     kdata[mb->dtam_offset + mb->dtam_len] != '\0'))
					break;
			}
			if (m < nmemb)
				continue;
		}
		/* Same key under another function: errant DIF (DTrace raises an
		 * illegal-operation fault). */
		if (key->dtak_action != func)
			return DTRACE_CPUF_ILLOP;
		if (func == DTRACEAGG_COUNT - DTRACEACT_AGGREGATION)
			(*(uint64_t *)(void *)(kdata + size))++; /* the common case */
		else
			dtrace_aggregate_apply(func, (uint64_t *)(void *)(kdata + size), expr, arg);
		return 0;
	}

	/* A new key: its entry at the bottom, its index entry at the top. */
	offs = (buf->dtb_offset + 7) & ~(uint64_t)7;
	if (size < sizeof(dtrace_aggid_t) || buf->dtb_agg_nkeys >= UINT32_MAX - 1 ||
	    offs + fsize + sizeof(dtrace_aggkey_t) > buf->dtb_agg_free) {
		/* No room for the new key and its value: an aggregation drop. */
		dtrace_buffer_drop(buf);
		return 0;
	}
	key = &keys[-(int64_t)(buf->dtb_agg_nkeys + 1)];
	kdata = tomax + offs;

	/* The key bytes, gaps and string tails zeroed; the initial value. */
	memset(kdata, 0, fsize);
	memcpy(kdata, &agg->dtag_id, sizeof(dtrace_aggid_t));
	if (overflow) {
		dtrace_aggkey_copy(agg, kdata, data, size);
	} else {
		for (uint32_t m = 0; m < nmemb; m++)
			memcpy(kdata + memb[m].dtam_offset, data + memb[m].dtam_offset,
			       memb[m].dtam_len);
	}
	memcpy(kdata + size, &agg->dtag_initial, sizeof(uint64_t));
	dtrace_aggregate_apply(func, (uint64_t *)(void *)(kdata + size), expr, arg);

	key->dtak_data = offs;
	key->dtak_hashval = hashval;
	key->dtak_size = size;
	key->dtak_action = func;
	key->dtak_next = *bucket;
	buf->dtb_agg_nkeys++;
	*bucket = buf->dtb_agg_nkeys;
	buf->dtb_agg_free -= sizeof(dtrace_aggkey_t);
	buf->dtb_offset = offs + fsize;
	return 0;
}

/* --- AGGDESC ------------------------------------------------------------- */

void
dtrace_aggregation_desc(const dtrace_aggregation_t *agg, dtrace_aggdesc_t *desc)
{
	const dtrace_recdesc_t *lrec = &agg->dtag_action.dta_rec;
	int32_t room = desc->dtagd_nrecs > 0 ? desc->dtagd_nrecs : 0;
	const dtrace_action_t *act;
	int32_t nrecs = 0;

	desc->dtagd_epid = agg->dtag_ecb != NULL ? agg->dtag_ecb->dte_epid : DTRACE_EPIDNONE;
	desc->dtagd_size = lrec->dtrd_offset + lrec->dtrd_size - agg->dtag_base;

	/*
	 * The tuple's records, then the value's; a zero-sized record (the
	 * increment argument) means nothing to the consumer and is left out,
	 * as DTrace does.  Offsets become relative to the entry.
	 */
	for (act = agg->dtag_first; act != NULL && nrecs < DTRACE_ACTIONS_MAX; act = act->dta_next) {
		if (act->dta_rec.dtrd_size != 0) {
			if (nrecs < room) {
				desc->dtagd_rec[nrecs] = act->dta_rec;
				desc->dtagd_rec[nrecs].dtrd_offset -= agg->dtag_base;
			}
			nrecs++;
		}
		if (act == &agg->dtag_action)
			break;
	}
	desc->dtagd_nrecs = nrecs;
}
