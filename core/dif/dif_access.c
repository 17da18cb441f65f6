/*
 * core/dif/dif_access.c: how probe-context code reads and writes memory
 * that D named.
 *
 * Two questions are answered separately:
 *   - May this consumer touch the bytes?  dtrace_dif_canload() (reads:
 *     anything with DTRACE_ACCESS_KERNEL, else only D-owned memory: scratch,
 *     variables, the running DIFO's string table) and dtrace_dif_canstore()
 *     (writes: only scratch and variable storage, never the dynamic store's
 *     bookkeeping).  A refused read is a KPRIV fault.
 *   - How are they read safely?  Through the port's nofault functions,
 *     except memory the core owns and knows to be valid for the whole firing
 *     (this CPU's scratch, the DIFO's string table), which is read directly:
 *     that is most of the string work D does, and it costs no port call.
 *
 * Every function here runs in probe context and is bounded by its length
 * argument.  Faults are recorded as DTRACE_CPUF_* bits with cpuc_illval set
 * to the first faulting address, and the function returns a neutral value.
 */
#include "dif_internal.h"

uint32_t
dtrace_dif_fltflag(int flt)
{
	switch (flt) {
	case DTRACEFLT_BADALIGN:
		return DTRACE_CPUF_BADALIGN;
	case DTRACEFLT_ILLOP:
		return DTRACE_CPUF_ILLOP;
	case DTRACEFLT_DIVZERO:
		return DTRACE_CPUF_DIVZERO;
	case DTRACEFLT_NOSCRATCH:
		return DTRACE_CPUF_NOSCRATCH;
	case DTRACEFLT_KPRIV:
		return DTRACE_CPUF_KPRIV;
	case DTRACEFLT_UPRIV:
		return DTRACE_CPUF_UPRIV;
	case DTRACEFLT_TUPOFLOW:
		return DTRACE_CPUF_TUPOFLOW;
	case DTRACEFLT_BADSTACK:
		return DTRACE_CPUF_BADSTACK;
	default: /* BADADDR, and anything a port invents */
		return DTRACE_CPUF_BADADDR;
	}
}

uint64_t
dtrace_dif_load(dtrace_mstate_t *mstate, int space, uintptr_t addr, size_t size)
{
	uintptr_t fa = addr;
	uint64_t v;
	int rc;

	if (addr & (size - 1)) {
		dtrace_dif_fault(mstate, DTRACE_CPUF_BADALIGN, addr);
		return 0;
	}
	if (space == DTRACE_AS_KERNEL && dtrace_dif_direct(mstate, addr) >= size) {
		switch (size) {
		case 1:
			return *(const uint8_t *)addr;
		case 2:
			return *(const uint16_t *)addr;
		case 4:
			return *(const uint32_t *)addr;
		default:
			return *(const uint64_t *)addr;
		}
	}
	if ((rc = dtrace_port_load(space, addr, size, &v, &fa)) != 0) {
		dtrace_dif_fault(mstate, dtrace_dif_fltflag(rc), fa);
		return 0;
	}
	return v;
}

static bool
dif_copyin(dtrace_mstate_t *mstate, int space, uintptr_t src, void *dst, size_t len)
{
	uintptr_t fa = src;
	int rc;

	if ((rc = dtrace_port_copyin(space, src, dst, len, &fa)) != 0) {
		dtrace_dif_fault(mstate, dtrace_dif_fltflag(rc), fa);
		return false;
	}
	return true;
}

/*
 * A user-space source numerically overlapping core memory: on a host whose
 * user and kernel spaces share addresses it is the same memory, elsewhere it
 * is not, so go through the port in pieces no longer than the distance, in
 * memmove's order; no piece overlaps itself.  At most `len` pieces.
 */
static bool
dif_copy_pieces(dtrace_mstate_t *mstate, int space, uintptr_t src, void *dst, size_t len)
{
	uintptr_t d = (uintptr_t)dst;
	size_t step, done, n, off;

	if (src == d)
		return dif_copyin(mstate, space, src, dst, len);
	step = src > d ? src - d : d - src;
	for (done = 0; done < len; done += n) {
		n = len - done < step ? len - done : step;
		off = src > d ? done : len - done - n;
		if (!dif_copyin(mstate, space, src + off, (char *)dst + off, n))
			return false;
	}
	return true;
}

bool
dtrace_dif_copy(dtrace_mstate_t *mstate, int space, uintptr_t src, void *dst, size_t len)
{
	uintptr_t d = (uintptr_t)dst;
	size_t step;

	if (len == 0)
		return true;
	if (space == DTRACE_AS_KERNEL && dtrace_dif_direct(mstate, src) >= len) {
		memmove(dst, (const void *)src, len); /* COPYS may overlap in scratch */
		return true;
	}
	if (src >= d + len || d >= src + len)
		return dif_copyin(mstate, space, src, dst, len);
	if (space != DTRACE_AS_KERNEL)
		return dif_copy_pieces(mstate, space, src, dst, len);
	/*
	 * The source overlaps the destination: a by-reference variable assigned
	 * from inside its own storage.  The overlapping bytes lie inside the
	 * destination, core memory the core reads and writes directly, so they
	 * move with memmove; only the part of the source outside the destination
	 * goes through the port, after the move has read what it overwrites.
	 */
	step = src > d ? src - d : d - src;
	if (src > d) {
		memmove(dst, (const void *)src, len - step);
		return dif_copyin(mstate, space, d + len, (char *)dst + len - step, step);
	}
	if (src < d) {
		memmove((char *)dst + step, dst, len - step);
		return dif_copyin(mstate, space, src, dst, step);
	}
	return true; /* the same bytes */
}

size_t
dtrace_dif_copystr(dtrace_mstate_t *mstate, uintptr_t src, char *dst, size_t len)
{
	size_t n = 0, direct, copied = 0;
	uintptr_t fa = src;
	int rc;

	if (len == 0)
		return 0;
	if ((direct = dtrace_dif_direct(mstate, src)) != 0) {
		const char *s = (const char *)src;
		size_t lim = direct < len ? direct : len;

		while (n < lim) {
			if ((dst[n] = s[n]) == '\0')
				return n + 1;
			n++;
		}
		if (n == len)
			return n;
		/* The string runs past scratch's end: continue the slow way. */
	}
	rc = dtrace_port_copyinstr(DTRACE_AS_KERNEL, src + n, dst + n, len - n, &copied, &fa);
	if (rc != 0)
		dtrace_dif_fault(mstate, dtrace_dif_fltflag(rc), fa);
	return n + copied;
}

size_t
dtrace_dif_strlen(dtrace_mstate_t *mstate, uintptr_t s, size_t lim)
{
	char chunk[64];
	size_t n = 0, direct;

	if ((direct = dtrace_dif_direct(mstate, s)) != 0) {
		const char *p = (const char *)s;
		size_t dl = direct < lim ? direct : lim;

		while (n < dl && p[n] != '\0')
			n++;
		if (n < dl || n == lim)
			return n;
	}
	while (n < lim) {
		size_t want = lim - n < sizeof(chunk) ? lim - n : sizeof(chunk);
		size_t got = dtrace_dif_copystr(mstate, s + n, chunk, want);

		if (dtrace_dif_faulted(mstate))
			return n;
		for (size_t i = 0; i < got; i++) {
			if (chunk[i] == '\0')
				return n + i;
		}
		n += got;
		if (got < want)
			break; /* a port that copies less without faulting: stop */
	}
	return n;
}

/*
 * A window of at most `n` bytes of the D string at `s` that can be read
 * directly: the string itself when it lies in core-owned memory, else a copy
 * in `buf` (stopping after its NUL).  NULL reads as "".
 */
static const char *
dif_strwindow(dtrace_mstate_t *mstate, uintptr_t s, char *buf, size_t n)
{
	static const char empty[1];

	if (s == 0)
		return empty;
	if (dtrace_dif_direct(mstate, s) >= n)
		return (const char *)s;
	for (size_t got = dtrace_dif_copystr(mstate, s, buf, n); got < n; got++)
		buf[got] = '\0'; /* past the NUL (or a fault): defined, never examined */
	return buf;
}

int
dtrace_dif_strncmp(dtrace_mstate_t *mstate, uintptr_t s1, uintptr_t s2, size_t lim)
{
	char b1[32], b2[32];

	if (s1 == s2 || lim == 0)
		return 0;
	/* A window at a time: one port call per string per 32 bytes at most. */
	while (lim != 0) {
		size_t n = lim < sizeof(b1) ? lim : sizeof(b1);
		const char *p1 = dif_strwindow(mstate, s1, b1, n);
		const char *p2 = dif_strwindow(mstate, s2, b2, n);

		if (dtrace_dif_faulted(mstate))
			return 0;
		for (size_t i = 0; i < n; i++) {
			uint8_t c1 = (uint8_t)p1[i], c2 = (uint8_t)p2[i];

			if (c1 != c2)
				return (int)c1 - (int)c2;
			if (c1 == '\0')
				return 0;
		}
		s1 += s1 != 0 ? n : 0;
		s2 += s2 != 0 ? n : 0;
		lim -= n;
	}
	return 0;
}

int
dtrace_dif_bcmp(dtrace_mstate_t *mstate, uintptr_t s1, const void *s2, size_t len)
{
	const uint8_t *p2 = s2;

	if ((const void *)s1 == s2)
		return 0;
	if (s1 == 0 || s2 == NULL)
		return 1;
	for (size_t i = 0; i < len; i++) {
		if (dtrace_dif_load8(mstate, s1 + i) != p2[i])
			return 1;
		if (dtrace_dif_faulted(mstate))
			return 1;
	}
	return 0;
}

/* --- Privilege ------------------------------------------------------------------- */

/*
 * Bytes of D-writable memory from `addr` to the end of its region, or 0
 * when [addr, addr + sz) is not entirely inside one such region.
 */
static size_t
dif_store_remain(uint64_t addr, size_t sz, const dtrace_mstate_t *mstate,
		 const dtrace_vstate_t *vs)
{
	const dtrace_dstate_t *ds = &vs->dtvs_dynvars;

	if (dtrace_dif_inrange(addr, sz, mstate->dtms_scratch_base, mstate->dtms_scratch_size))
		return mstate->dtms_scratch_base + mstate->dtms_scratch_size - addr;

	if (ds->dtds_base != NULL &&
	    dtrace_dif_inrange(addr, sz, (uintptr_t)ds->dtds_base, ds->dtds_size)) {
		/*
		 * Only a live variable's data may be written: not the hash
		 * table at the base, not a chunk's header or key tuple, not a
		 * free chunk, and never across into the next chunk.
		 */
		uintptr_t chunks = (uintptr_t)ds->dtds_base + ds->dtds_hashsize * sizeof(dtrace_dynhash_t);
		uintptr_t off, start, data;
		const dtrace_dynvar_t *dv;

		if (addr < chunks || ds->dtds_chunksize == 0)
			return 0;
		off = (addr - chunks) % ds->dtds_chunksize;
		start = addr - off;
		if (start + ds->dtds_chunksize > (uintptr_t)ds->dtds_base + ds->dtds_size)
			return 0;
		dv = (const dtrace_dynvar_t *)start;
		if (dv->dtdv_hashval == DTRACE_DYNHASH_FREE)
			return 0;
		data = (uintptr_t)dv->dtdv_data;
		if (addr < data || !dtrace_dif_inrange(addr, sz, start, ds->dtds_chunksize))
			return 0;
		return start + ds->dtds_chunksize - addr;
	}

	for (int pass = 0; pass < 2; pass++) {
		dtrace_statvar_t *const *svars = pass == 0 ? vs->dtvs_locals : vs->dtvs_globals;
		int n = pass == 0 ? vs->dtvs_nlocals : vs->dtvs_nglobals;

		for (int i = 0; i < n; i++) {
			const dtrace_statvar_t *sv = svars[i];
			/* a scalar global's storage is no D object */
			if (sv == NULL || sv->dtsv_size == 0 ||
			    (pass == 1 && !(sv->dtsv_var.dtdv_type.dtdt_flags & DIF_TF_BYREF)))
				continue;
			if (dtrace_dif_inrange(addr, sz, sv->dtsv_data, sv->dtsv_size))
				return sv->dtsv_data + sv->dtsv_size - addr;
		}
	}
	return 0;
}

bool
dtrace_dif_canstore(uint64_t addr, size_t sz, const dtrace_mstate_t *mstate,
		    const dtrace_vstate_t *vs)
{
	return dif_store_remain(addr, sz, mstate, vs) != 0;
}

/* Bytes readable from `addr` without kernel access, 0 if none may be. */
static size_t
dif_load_remain(uint64_t addr, size_t sz, const dtrace_mstate_t *mstate,
		const dtrace_vstate_t *vs)
{
	const dtrace_difo_t *dp = mstate->dtms_difo;
	size_t r;

	if ((r = dif_store_remain(addr, sz, mstate, vs)) != 0)
		return r;
	if (dp != NULL &&
	    dtrace_dif_inrange(addr, sz, (uintptr_t)dp->dtdo_strtab, dp->dtdo_strlen))
		return (uintptr_t)dp->dtdo_strtab + dp->dtdo_strlen - addr;
	return 0;
}

bool
dtrace_dif_canload(uint64_t addr, size_t sz, dtrace_mstate_t *mstate, const dtrace_vstate_t *vs)
{
	if (mstate->dtms_access & DTRACE_ACCESS_KERNEL)
		return true;
	if (dif_load_remain(addr, sz, mstate, vs) != 0)
		return true;
	dtrace_dif_fault(mstate, DTRACE_CPUF_KPRIV, addr);
	return false;
}

bool
dtrace_dif_strcanload(uint64_t addr, size_t sz, size_t *lim, dtrace_mstate_t *mstate,
		      const dtrace_vstate_t *vs)
{
	size_t remain, len;

	if (mstate->dtms_access & DTRACE_ACCESS_KERNEL) {
		*lim = sz;
		return true;
	}
	/*
	 * Find the region first and measure the string only inside it, so that
	 * the time taken cannot reveal where NULs lie in memory we may not read.
	 */
	if ((remain = dif_load_remain(addr, 0, mstate, vs)) != 0) {
		size_t bound = sz < remain ? sz : remain;

		len = dtrace_dif_strlen(mstate, addr, bound);
		if (len + 1 <= remain) {
			*lim = bound;
			return true;
		}
	}
	*lim = 0;
	dtrace_dif_fault(mstate, DTRACE_CPUF_KPRIV, addr);
	return false;
}
