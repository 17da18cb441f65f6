/*
 * core/dif/dif_subr.c: DIF subroutines (the CALL instruction).
 *
 * Table-driven: dif_subr_fns[] maps a subroutine number to its function;
 * dif_tables.c says which numbers exist and which this core implements, and
 * the validator refuses the others, so every call that reaches here has a
 * function.  Each function reads its arguments from the tuple stack (a
 * missing argument reads as 0), leaves its result in regs[rd], and reports
 * problems as faults.
 *
 * Semantics and limits are DTrace's (illumos/FreeBSD dtrace.c): strings are
 * bounded by the strsize option and access-checked with strcanload before
 * they are read; results go into this CPU's scratch and a lack of room is a
 * NOSCRATCH fault; user memory is read with the port's DTRACE_AS_USER
 * functions.  Every loop is bounded by strsize, an explicit size that was
 * checked against scratch or an access region, or a constant.
 *
 * Probe context only.
 */
#include "dif_internal.h"

typedef struct dif_call {
	uint64_t *regs;
	uint32_t rd;
	const dtrace_key_t *tup;
	int nargs;
	dtrace_mstate_t *m;
	dtrace_vstate_t *vs;
	dtrace_state_t *state;
	uint32_t subr;
} dif_call_t;

typedef void dif_subr_fn_t(dif_call_t *c);

static inline uint64_t
arg(const dif_call_t *c, int i)
{
	return i < c->nargs ? c->tup[i].dttk_value : 0;
}

static inline void
ret(dif_call_t *c, uint64_t v)
{
	c->regs[c->rd] = v;
}

/* Access-check string argument `i`; *lim receives how far it may be read. */
static bool
strarg(dif_call_t *c, int i, size_t *lim)
{
	if (!dtrace_dif_strcanload(arg(c, i), dtrace_dif_strsize(c->state), lim, c->m, c->vs)) {
		ret(c, 0);
		return false;
	}
	return true;
}

/* strsize bytes of scratch at the current pointer, not yet taken. */
static char *
scratch_peek(dif_call_t *c, size_t size)
{
	if (!dtrace_dif_inscratch(c->m, size)) {
		dtrace_dif_fault(c->m, DTRACE_CPUF_NOSCRATCH, 0);
		ret(c, 0);
		return NULL;
	}
	return (char *)c->m->dtms_scratch_ptr;
}

static inline bool
is_little_endian(void)
{
	const union {
		uint16_t u;
		uint8_t b[2];
	} e = {0x0102};

	return e.b[0] == 0x02;
}

/* --- Miscellany --------------------------------------------------------------- */

/* xoroshiro128+: the generator FreeBSD uses, one state per CPU. */
static void
subr_rand(dif_call_t *c)
{
	uint64_t *s = dtrace_cpu_core[c->m->dtms_cpu].cpuc_rand;
	uint64_t s0 = s[0], s1 = s[1], r;

	if ((s0 | s1) == 0) /* an all-zero state would stay zero */
		s0 = 0x9e3779b97f4a7c15ull * (c->m->dtms_cpu + 1);
	r = s0 + s1;
	s1 ^= s0;
	s[0] = ((s0 << 55) | (s0 >> 9)) ^ s1 ^ (s1 << 14);
	s[1] = (s1 << 36) | (s1 >> 28);
	ret(c, r);
}

/* speculation(): the buffers' allocator; 0 when none is free (counted there). */
static void
subr_speculation(dif_call_t *c)
{
	ret(c, dtrace_speculation(c->state));
}

/*
 * progenyof(pid): whether the current process is `pid` or descends from it;
 * the argument is a pid_t, as in DTrace.
 */
static void
subr_progenyof(dif_call_t *c)
{
	ret(c, dtrace_port_curproc_progenyof((uint32_t)arg(c, 0)) != 0);
}

/*
 * getmajor(), getminor(): the parts of a device number, encoded as the
 * kernel encodes its dev_t (the port knows how); major_t and minor_t are
 * 32 bits wide in D.
 */
static void
subr_getmajor_minor(dif_call_t *c)
{
	uint64_t dev = arg(c, 0);

	ret(c, (uint32_t)(c->subr == DIF_SUBR_GETMAJOR ? dtrace_port_dev_major(dev)
						       : dtrace_port_dev_minor(dev)));
}

static void
subr_byteswap(dif_call_t *c)
{
	uint64_t v = arg(c, 0);
	bool le = is_little_endian();

	switch (c->subr) {
	case DIF_SUBR_HTONS:
	case DIF_SUBR_NTOHS:
		v = (uint16_t)v;
		ret(c, le ? __builtin_bswap16((uint16_t)v) : v);
		break;
	case DIF_SUBR_HTONL:
	case DIF_SUBR_NTOHL:
		v = (uint32_t)v;
		ret(c, le ? __builtin_bswap32((uint32_t)v) : v);
		break;
	default:
		ret(c, le ? __builtin_bswap64(v) : v);
		break;
	}
}

/* --- Memory --------------------------------------------------------------------- */

/* alloca(size) and copyin(uaddr, size): 8-aligned scratch. */
static void
subr_alloca_copyin(dif_call_t *c)
{
	bool copyin = c->subr == DIF_SUBR_COPYIN;
	uint64_t size = arg(c, copyin ? 1 : 0);
	uintptr_t dest = dtrace_dif_scratch(c->m, size, 8);

	if (dest == 0) {
		ret(c, 0);
		return;
	}
	if (copyin)
		dtrace_dif_copy(c->m, DTRACE_AS_USER, arg(c, 0), (void *)dest, size);
	else
		memset((void *)dest, 0, size);
	ret(c, dest);
}

/* Destination of bcopy()/copyinto(): scratch already allocated by alloca(). */
static bool
in_alloca(const dtrace_mstate_t *m, uintptr_t dest, uint64_t size)
{
	return dest >= m->dtms_scratch_base && dest + size >= dest &&
	       dest + size <= m->dtms_scratch_ptr;
}

static void
subr_copyinto(dif_call_t *c)
{
	uint64_t size = arg(c, 1);
	uintptr_t dest = arg(c, 2);

	if (!in_alloca(c->m, dest, size)) {
		dtrace_dif_fault(c->m, DTRACE_CPUF_BADADDR, dest);
		return;
	}
	dtrace_dif_copy(c->m, DTRACE_AS_USER, arg(c, 0), (void *)dest, size);
}

static void
subr_bcopy(dif_call_t *c)
{
	uintptr_t src = arg(c, 0), dest = arg(c, 1);
	uint64_t size = arg(c, 2);

	if (!in_alloca(c->m, dest, size)) {
		dtrace_dif_fault(c->m, DTRACE_CPUF_BADADDR, dest);
		return;
	}
	if (!dtrace_dif_canload(src, size, c->m, c->vs)) {
		ret(c, 0);
		return;
	}
	dtrace_dif_copy(c->m, DTRACE_AS_KERNEL, src, (void *)dest, size);
}

/* copyinstr(uaddr [, maxlen]): at most strsize (or maxlen + 1) bytes. */
static void
subr_copyinstr(dif_call_t *c)
{
	uint64_t size = dtrace_dif_strsize(c->state);
	size_t copied = 0;
	uintptr_t fa = arg(c, 0);
	char *dest;
	int rc;

	if (c->nargs > 1 && arg(c, 1) < size)
		size = arg(c, 1) + 1;
	if ((dest = scratch_peek(c, size)) == NULL)
		return;
	rc = dtrace_port_copyinstr(DTRACE_AS_USER, arg(c, 0), dest, size, &copied, &fa);
	if (rc != 0) {
		dtrace_dif_fault(c->m, dtrace_dif_fltflag(rc), fa);
		return;
	}
	if (copied < size && (copied == 0 || dest[copied - 1] != '\0'))
		dest[copied] = '\0'; /* a port that stopped early without a NUL */
	dest[size - 1] = '\0';
	c->m->dtms_scratch_ptr += size;
	ret(c, (uintptr_t)dest);
}

/* Copy `len` bytes of D memory to user space through a bounce buffer. */
static void
copyout_bytes(dif_call_t *c, uintptr_t src, uintptr_t udst, size_t len, bool string)
{
	char chunk[128];
	uintptr_t fa;

	while (len != 0) {
		size_t n = len < sizeof(chunk) ? len : sizeof(chunk), got = n;
		int rc;

		if (string)
			got = dtrace_dif_copystr(c->m, src, chunk, n);
		else
			dtrace_dif_copy(c->m, DTRACE_AS_KERNEL, src, chunk, n);
		if (dtrace_dif_faulted(c->m))
			return;
		fa = udst;
		if ((rc = dtrace_port_copyout(chunk, udst, got, &fa)) != 0) {
			dtrace_dif_fault(c->m, dtrace_dif_fltflag(rc), fa);
			return;
		}
		if (string && (got < n || chunk[got - 1] == '\0'))
			return;
		src += n;
		udst += n;
		len -= n;
	}
}

static bool
priv_proc_control(dif_call_t *c)
{
	if (c->m->dtms_access & DTRACE_ACCESS_PROC)
		return true;
	dtrace_dif_fault(c->m, DTRACE_CPUF_UPRIV, 0);
	return false;
}

static void
subr_copyout(dif_call_t *c)
{
	uintptr_t kaddr = arg(c, 0), uaddr = arg(c, 1);
	uint64_t size = arg(c, 2);

	if (!priv_proc_control(c) || !dtrace_dif_canload(kaddr, size, c->m, c->vs))
		return;
	copyout_bytes(c, kaddr, uaddr, size, false);
}

static void
subr_copyoutstr(dif_call_t *c)
{
	uintptr_t kaddr = arg(c, 0), uaddr = arg(c, 1);
	uint64_t size = arg(c, 2);
	size_t lim;

	if (!priv_proc_control(c) || !dtrace_dif_strcanload(kaddr, size, &lim, c->m, c->vs))
		return;
	copyout_bytes(c, kaddr, uaddr, lim, true);
}

/* memref(addr, len): a two-word (pointer-sized) record for tracemem-likes. */
static void
subr_memref(dif_call_t *c)
{
	uintptr_t p = dtrace_dif_scratch(c->m, 2 * sizeof(uintptr_t), sizeof(uintptr_t));

	if (p == 0) {
		ret(c, 0);
		return;
	}
	((uintptr_t *)p)[0] = (uintptr_t)arg(c, 0);
	((uintptr_t *)p)[1] = (uintptr_t)arg(c, 1);
	ret(c, p);
}

/* memstr(addr, c, size): size - 1 bytes as a string, NULs replaced by c. */
#define DIF_MEMSTR_MAX 4096 /* FreeBSD's dtrace_memstr_max */

static void
subr_memstr(dif_call_t *c)
{
	uintptr_t mem = arg(c, 0);
	char fill = (char)arg(c, 1);
	uint64_t size = arg(c, 2);
	char *str;

	ret(c, 0);
	if (size == 0)
		return;
	if (!dtrace_dif_canload(mem, size - 1, c->m, c->vs))
		return;
	if ((str = scratch_peek(c, size)) == NULL)
		return;
	if (size > DIF_MEMSTR_MAX) {
		dtrace_dif_fault(c->m, DTRACE_CPUF_ILLOP, (uintptr_t)size);
		return;
	}
	if (!dtrace_dif_copy(c->m, DTRACE_AS_KERNEL, mem, str, size - 1))
		return;
	for (uint64_t i = 0; i + 1 < size; i++) {
		if (str[i] == '\0')
			str[i] = fill;
	}
	str[size - 1] = '\0';
	c->m->dtms_scratch_ptr += size;
	ret(c, (uintptr_t)str);
}

/* --- Strings -------------------------------------------------------------------------- */

static void
subr_strlen(dif_call_t *c)
{
	size_t lim;

	if (strarg(c, 0, &lim))
		ret(c, dtrace_dif_strlen(c->m, arg(c, 0), lim));
}

static void
subr_strchr(dif_call_t *c)
{
	uintptr_t a = arg(c, 0), end;
	char target = (char)arg(c, 1);
	size_t lim;

	if (!strarg(c, 0, &lim))
		return;
	ret(c, 0);
	for (end = a + lim; a < end; a++) {
		char ch = (char)dtrace_dif_load8(c->m, a);

		if (dtrace_dif_faulted(c->m))
			return;
		if (ch == target) {
			ret(c, a);
			if (c->subr == DIF_SUBR_STRCHR)
				return;
		}
		if (ch == '\0')
			return;
	}
}

/* strstr(s, sub), index(s, sub [, pos]), rindex(s, sub [, pos]). */
static void
subr_strstr(dif_call_t *c)
{
	uintptr_t s = arg(c, 0), sub = arg(c, 1);
	size_t size = dtrace_dif_strsize(c->state);
	size_t len = dtrace_dif_strlen(c->m, s, size);
	size_t sublen = dtrace_dif_strlen(c->m, sub, size);
	int64_t notfound = c->subr == DIF_SUBR_STRSTR ? 0 : -1;
	int64_t pos, limit, inc = 1;

	ret(c, (uint64_t)notfound);
	if (dtrace_dif_faulted(c->m))
		return;
	if (!dtrace_dif_canload(s, len + 1, c->m, c->vs) ||
	    !dtrace_dif_canload(sub, sublen + 1, c->m, c->vs)) {
		ret(c, 0);
		return;
	}
	/* Both empty: strstr() gives the string, index()/rindex() give 0. */
	if (len == 0 && sublen == 0) {
		ret(c, c->subr == DIF_SUBR_STRSTR ? s : 0);
		return;
	}
	pos = 0;
	limit = (int64_t)len;
	if (c->subr == DIF_SUBR_RINDEX) {
		pos = (int64_t)len;
		limit = -1;
		inc = -1;
	}
	/* An explicit position, with Perl's clamping (as DTrace keeps it). */
	if (c->subr != DIF_SUBR_STRSTR && c->nargs == 3) {
		int64_t p = (int64_t)arg(c, 2);

		if (c->subr == DIF_SUBR_RINDEX) {
			if (p < 0) {
				if (sublen == 0)
					ret(c, 0);
				return;
			}
			if (p > (int64_t)len)
				p = (int64_t)len;
		} else {
			if (p < 0)
				p = 0;
			if (p >= (int64_t)len) {
				if (sublen == 0)
					ret(c, len);
				return;
			}
		}
		pos = p;
	}
	for (; pos != limit; pos += inc) {
		if (dtrace_dif_strncmp(c->m, s + (uint64_t)pos, sub, sublen) == 0) {
			ret(c, c->subr == DIF_SUBR_STRSTR ? s + (uint64_t)pos : (uint64_t)pos);
			return;
		}
		if (dtrace_dif_faulted(c->m))
			return;
	}
}

/* strtok(s, delims): NULL s continues where the last call stopped. */
static void
subr_strtok(dif_call_t *c)
{
	uintptr_t addr = arg(c, 0), tok = arg(c, 1), limit, toklimit;
	size_t size = dtrace_dif_strsize(c->state), clim, i;
	uint8_t map[32] = {0}, ch = 0;
	char *dest;

	if (!strarg(c, 1, &clim))
		return;
	toklimit = tok + clim;
	if ((dest = scratch_peek(c, size)) == NULL)
		return;
	if (addr == 0) {
		/* Like an implicit clause-local: only within this firing. */
		addr = c->m->dtms_strtok;
		limit = c->m->dtms_strtok_limit;
	} else {
		/* Checked now: later calls resume from a saved pointer. */
		if (!strarg(c, 0, &clim))
			return;
		limit = addr + clim;
	}
	for (; tok < toklimit; tok++) {
		if ((ch = dtrace_dif_load8(c->m, tok)) == '\0')
			break;
		map[ch >> 3] |= (uint8_t)(1u << (ch & 7));
	}
	/* Skip leading delimiters. */
	for (ch = 0; addr < limit; addr++) {
		if ((ch = dtrace_dif_load8(c->m, addr)) == '\0')
			break;
		if (!(map[ch >> 3] & (1u << (ch & 7))))
			break;
	}
	if (dtrace_dif_faulted(c->m))
		return;
	if (ch == '\0') {
		ret(c, 0);
		c->m->dtms_strtok = 0;
		c->m->dtms_strtok_limit = 0;
		return;
	}
	for (i = 0; addr < limit && i < size - 1; addr++) {
		if ((ch = dtrace_dif_load8(c->m, addr)) == '\0')
			break;
		if (map[ch >> 3] & (1u << (ch & 7)))
			break;
		dest[i++] = (char)ch;
	}
	dest[i] = '\0';
	ret(c, (uintptr_t)dest);
	c->m->dtms_scratch_ptr += size;
	c->m->dtms_strtok = addr;
	c->m->dtms_strtok_limit = limit;
}

/* substr(s, index [, length]) with DTrace's (Perl's) negative positions. */
static void
subr_substr(dif_call_t *c)
{
	uintptr_t s = arg(c, 0);
	size_t size = dtrace_dif_strsize(c->state);
	int64_t index = (int64_t)arg(c, 1), remaining = (int64_t)arg(c, 2), len, i;
	char *d;

	len = (int64_t)dtrace_dif_strlen(c->m, s, size);
	if (dtrace_dif_faulted(c->m))
		return;
	if (!dtrace_dif_canload(s, (size_t)len + 1, c->m, c->vs)) {
		ret(c, 0);
		return;
	}
	if ((d = scratch_peek(c, size)) == NULL)
		return;
	if (c->nargs <= 2)
		remaining = (int64_t)size;
	if (index < 0) {
		index += len;
		if (index < 0 && index + remaining > 0) {
			remaining += index;
			index = 0;
		}
	}
	if (index >= len || index < 0)
		remaining = 0;
	else if (remaining < 0)
		remaining += len - index;
	else if (index + remaining > (int64_t)size)
		remaining = (int64_t)size - index;
	if (remaining > (int64_t)size - 1)
		remaining = (int64_t)size - 1; /* room for the NUL */
	for (i = 0; i < remaining; i++) {
		if ((d[i] = (char)dtrace_dif_load8(c->m, s + (uint64_t)(index + i))) == '\0')
			break;
	}
	d[i < 0 ? 0 : i] = '\0';
	c->m->dtms_scratch_ptr += size;
	ret(c, (uintptr_t)d);
}

static void
subr_strjoin(dif_call_t *c)
{
	uintptr_t s1 = arg(c, 0), s2 = arg(c, 1);
	size_t size = dtrace_dif_strsize(c->state), lim1, lim2, i = 0, j = 0;
	char *d, ch;

	if (!strarg(c, 0, &lim1) || !strarg(c, 1, &lim2))
		return;
	if ((d = scratch_peek(c, size)) == NULL)
		return;
	for (;;) {
		if (i >= size)
			goto full;
		ch = i >= lim1 ? '\0' : (char)dtrace_dif_load8(c->m, s1 + i);
		if ((d[i] = ch) == '\0')
			break;
		i++;
	}
	for (;;) {
		if (i >= size)
			goto full;
		ch = j >= lim2 ? '\0' : (char)dtrace_dif_load8(c->m, s2 + j);
		j++;
		if ((d[i++] = ch) == '\0')
			break;
	}
	c->m->dtms_scratch_ptr += i;
	ret(c, (uintptr_t)d);
	return;
full:
	/* The joined string does not fit in strsize: as DTrace, no room. */
	dtrace_dif_fault(c->m, DTRACE_CPUF_NOSCRATCH, 0);
	ret(c, 0);
}

static inline int
digit_value(uint8_t ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A' + 10;
	return 99;
}

/* strtoll of at most `limit` bytes at `s`, as DTrace's (wrapping) parser. */
static int64_t
dif_strtoll(dtrace_mstate_t *m, uintptr_t s, int base, size_t limit)
{
	uintptr_t pos = s, end = s + limit;
	uint64_t val = 0;
	bool neg = false;
	uint8_t ch;

	if (limit == 0)
		return 0;
	while (pos < end && ((ch = dtrace_dif_load8(m, pos)) == ' ' || ch == '\t'))
		pos++;
	if (pos >= end)
		return 0;
	ch = dtrace_dif_load8(m, pos);
	if (ch == '-' || ch == '+') {
		neg = ch == '-';
		if (++pos >= end)
			return 0;
		ch = dtrace_dif_load8(m, pos);
	}
	if (base == 16 && ch == '0' && pos + 2 < end) {
		uint8_t x = dtrace_dif_load8(m, pos + 1), d = dtrace_dif_load8(m, pos + 2);

		if ((x == 'x' || x == 'X') && digit_value(d) < 16) {
			pos += 2;
			ch = d;
		}
	}
	for (; pos < end && ch != '\0' && digit_value(ch) < base; ch = dtrace_dif_load8(m, ++pos)) {
		val = val * (uint64_t)base + (uint64_t)digit_value(ch);
		if (pos + 1 >= end)
			break;
	}
	return neg ? (int64_t)(0 - val) : (int64_t)val;
}

static void
subr_strtoll(dif_call_t *c)
{
	int base = 10;
	size_t lim;

	if (c->nargs > 1) {
		uint64_t b = arg(c, 1);

		if (b <= 1 || b > 36) {
			dtrace_dif_fault(c->m, DTRACE_CPUF_ILLOP, (uintptr_t)b);
			return;
		}
		base = (int)b;
	}
	if (!dtrace_dif_strcanload(arg(c, 0), dtrace_dif_strsize(c->state), &lim, c->m, c->vs)) {
		ret(c, (uint64_t)INT64_MIN);
		return;
	}
	ret(c, (uint64_t)dif_strtoll(c->m, arg(c, 0), base, lim));
}

/* lltostr(v [, base]): "0x" for base 16, leading "0" for base 8. */
static void
subr_lltostr(dif_call_t *c)
{
	int64_t i = (int64_t)arg(c, 0);
	uint64_t val, base = 10, size = 65; /* 64 binary digits and a NUL */
	char *start, *end;

	if (c->nargs > 1) {
		base = arg(c, 1);
		if (base <= 1 || base > 36) {
			dtrace_dif_fault(c->m, DTRACE_CPUF_ILLOP, (uintptr_t)base);
			return;
		}
	}
	val = (base == 10 && i < 0) ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
	if ((start = scratch_peek(c, size)) == NULL)
		return;
	end = start + size - 1;
	*end-- = '\0';
	for (; val != 0; val /= base) {
		uint64_t d = val % base;
		*end-- = (char)(d < 10 ? '0' + d : 'a' + d - 10);
	}
	/* The prefixes below need at most 4 bytes: 64 digits happen only in base 2. */
	if (i == 0 && base == 16)
		*end-- = '0';
	if (base == 16)
		*end-- = 'x';
	if (i == 0 || base == 8 || base == 16)
		*end-- = '0';
	if (i < 0 && base == 10)
		*end-- = '-';
	c->m->dtms_scratch_ptr += size;
	ret(c, (uintptr_t)(end + 1));
}

static void
subr_toupper_lower(dif_call_t *c)
{
	uintptr_t s = arg(c, 0);
	size_t size = dtrace_dif_strsize(c->state), len, i;
	char lo = 'a', hi = 'z', to = 'A', *dest;

	if (c->subr == DIF_SUBR_TOLOWER)
		lo = 'A', hi = 'Z', to = 'a';
	len = dtrace_dif_strlen(c->m, s, size);
	if (dtrace_dif_faulted(c->m))
		return;
	if (!dtrace_dif_canload(s, len + 1, c->m, c->vs)) {
		ret(c, 0);
		return;
	}
	if ((dest = scratch_peek(c, size)) == NULL)
		return;
	for (i = 0; i < size - 1; i++) {
		char ch = (char)dtrace_dif_load8(c->m, s + i);

		if (ch == '\0')
			break;
		if (ch >= lo && ch <= hi)
			ch = (char)(to + (ch - lo));
		dest[i] = ch;
	}
	dest[i] = '\0';
	c->m->dtms_scratch_ptr += size;
	ret(c, (uintptr_t)dest);
}

/* basename(s) / dirname(s), with "." for empty and "/" for all-slashes. */
static void
subr_basename_dirname(dif_call_t *c)
{
	static const char dot[] = ".";
	uintptr_t src = arg(c, 0);
	size_t size = dtrace_dif_strsize(c->state);
	int64_t len, i, j, lastbase = -1, firstbase = -1, lastdir = -1, start, end;
	bool dir = c->subr == DIF_SUBR_DIRNAME;
	char *dest;

	len = (int64_t)dtrace_dif_strlen(c->m, src, size);
	if (dtrace_dif_faulted(c->m))
		return;
	if (!dtrace_dif_canload(src, (size_t)len + 1, c->m, c->vs)) {
		ret(c, 0);
		return;
	}
	if ((dest = scratch_peek(c, size)) == NULL)
		return;
	if (len == 0) {
		len = 1;
		src = (uintptr_t)dot;
	}
	for (i = len - 1; i >= 0 && dtrace_dif_load8(c->m, src + i) == '/'; i--)
		;
	if (i >= 0)
		lastbase = i;
	for (; i >= 0 && dtrace_dif_load8(c->m, src + i) != '/'; i--)
		;
	if (i >= 0)
		firstbase = i + 1;
	for (; i >= 0 && dtrace_dif_load8(c->m, src + i) == '/'; i--)
		;
	if (i >= 0)
		lastdir = i;

	if (lastbase == -1) {
		/* Nothing but slashes: both answers are "/". */
		firstbase = lastbase = lastdir = 0;
	}
	if (firstbase == -1) {
		/* A bare name: its dirname is ".", its basename itself. */
		if (dir) {
			src = (uintptr_t)dot;
			lastdir = 0;
		} else {
			firstbase = 0;
		}
	}
	if (dir) {
		if (lastdir == -1)
			lastdir = 0; /* "/name": the dirname is "/" */
		start = 0;
		end = lastdir;
	} else {
		start = firstbase;
		end = lastbase;
	}
	for (i = start, j = 0; i <= end && j < (int64_t)size - 1; i++, j++)
		dest[j] = (char)dtrace_dif_load8(c->m, src + i);
	dest[j] = '\0';
	c->m->dtms_scratch_ptr += size;
	ret(c, (uintptr_t)dest);
}

/* cleanpath(s): remove "//", "/./" and "name/.." components. */
static void
subr_cleanpath(dif_call_t *c)
{
	uintptr_t src = arg(c, 0);
	size_t size = dtrace_dif_strsize(c->state), lim, i = 0, j = 0;
	char *dest, ch;

#define NEXTCH() (i >= lim ? '\0' : (char)dtrace_dif_load8(c->m, src + i++))
	if (!strarg(c, 0, &lim))
		return;
	if ((dest = scratch_peek(c, size)) == NULL)
		return;
	do {
		ch = NEXTCH();
	again:
		if (j + 5 >= size) /* room for "/..c" and the NUL */
			break;
		if (ch != '/') {
			dest[j++] = ch;
			continue;
		}
		ch = NEXTCH();
		if (ch == '/')
			goto again; /* "//" */
		if (ch != '.') {
			dest[j++] = '/';
			dest[j++] = ch;
			continue;
		}
		ch = NEXTCH();
		if (ch == '/')
			goto again; /* "/./" */
		if (ch != '.') {
			dest[j++] = '/';
			dest[j++] = '.';
			dest[j++] = ch;
			continue;
		}
		ch = NEXTCH();
		if (ch != '/' && ch != '\0') {
			/* "/..x": an ordinary name */
			dest[j++] = '/';
			dest[j++] = '.';
			dest[j++] = '.';
			dest[j++] = ch;
			continue;
		}
		/* "/../" or "/..": drop the last component. */
		i--;
		while (j != 0 && dest[--j] != '/')
			;
		if (ch == '\0')
			dest[++j] = '/';
	} while (ch != '\0');
#undef NEXTCH
	dest[j] = '\0';
	c->m->dtms_scratch_ptr += size;
	ret(c, (uintptr_t)dest);
}

/* --- Network addresses ------------------------------------------------------------ */

#define DIF_AF_INET 2
#define DIF_INET_ADDRSTRLEN 16
#define DIF_INET6_ADDRSTRLEN 46

/* AF_INET6 differs between systems; D programs pass their compiler's. */
static bool
is_af_inet6(uint64_t af)
{
	return af == 10 /* Linux */ || af == 24 /* NetBSD, OpenBSD */ || af == 26 /* illumos */ ||
	       af == 28 /* FreeBSD */ || af == 30 /* macOS */;
}

/* Write decimal `v` backwards ending at *endp. */
static void
put_dec_back(char **endp, unsigned v)
{
	if (v == 0) {
		*(*endp)-- = '0';
		return;
	}
	for (; v != 0; v /= 10)
		*(*endp)-- = (char)('0' + v % 10);
}

static void
subr_inet(dif_call_t *c)
{
	uint64_t af;
	int argi;
	size_t size;
	char *base, *end;
	uintptr_t addr;

	if (c->subr == DIF_SUBR_INET_NTOP) {
		af = arg(c, 0);
		argi = 1;
	} else {
		af = c->subr == DIF_SUBR_INET_NTOA ? DIF_AF_INET : 28;
		argi = 0;
	}
	addr = arg(c, argi);

	if (af == DIF_AF_INET) {
		uint8_t ip[4];

		if (!dtrace_dif_canload(addr, sizeof(ip), c->m, c->vs)) {
			ret(c, 0);
			return;
		}
		if (!dtrace_dif_copy(c->m, DTRACE_AS_KERNEL, addr, ip, sizeof(ip)))
			return;
		size = DIF_INET_ADDRSTRLEN;
		if ((base = scratch_peek(c, size)) == NULL)
			return;
		end = base + size - 1;
		*end-- = '\0';
		for (int i = 3; i >= 0; i--) {
			put_dec_back(&end, ip[i]);
			if (i > 0)
				*end-- = '.';
		}
	} else if (is_af_inet6(af)) {
		uint8_t ip6[16];
		int firstzero = -1, tryzero = -1, numzero = 1, v6end, i;
		bool v4;

		if (!dtrace_dif_canload(addr, sizeof(ip6), c->m, c->vs)) {
			ret(c, 0);
			return;
		}
		if (!dtrace_dif_copy(c->m, DTRACE_AS_KERNEL, addr, ip6, sizeof(ip6)))
			return;
		size = DIF_INET6_ADDRSTRLEN;
		if ((base = scratch_peek(c, size)) == NULL)
			return;
		end = base + size - 1;
		*end-- = '\0';

		/*
		 * The run of zero bytes to compress into "::", measured as
		 * DTrace does: a run starts on a zero byte at a group boundary
		 * and must be longer than the longest so far.
		 */
		for (i = 0; i < 16; i++) {
			if (ip6[i] == 0 && tryzero == -1 && i % 2 == 0) {
				tryzero = i;
				continue;
			}
			if (tryzero != -1 && (ip6[i] != 0 || i == 15)) {
				if (i - tryzero <= numzero) {
					tryzero = -1;
					continue;
				}
				firstzero = tryzero;
				numzero = i - i % 2 - tryzero;
				tryzero = -1;
				if (ip6[i] == 0 && i == 15)
					numzero += 2;
			}
		}

		/* IPv4-mapped (::ffff:a.b.c.d) or -compatible (::a.b.c.d). */
		v4 = true;
		for (i = 0; i < 10; i++)
			v4 = v4 && ip6[i] == 0;
		if (v4 && ip6[10] == 0xff && ip6[11] == 0xff)
			v4 = true;
		else if (v4 && ip6[10] == 0 && ip6[11] == 0)
			v4 = !(ip6[12] == 0 && ip6[13] == 0 && ip6[14] == 0 && ip6[15] <= 1);
		else
			v4 = false;

		v6end = 14;
		if (v4) {
			for (i = 15; i >= 12; i--) {
				put_dec_back(&end, ip6[i]);
				if (i > 12)
					*end-- = '.';
			}
			if (c->subr == DIF_SUBR_INET_NTOA6)
				goto out;
			v6end = 10;
		}
		for (i = v6end; i >= 0; i -= 2) {
			unsigned val;

			if (i == firstzero + numzero - 2) {
				*end-- = ':';
				*end-- = ':';
				i -= numzero - 2;
				continue;
			}
			if (i < 14 && i != firstzero - 2)
				*end-- = ':';
			val = ((unsigned)ip6[i] << 8) | ip6[i + 1];
			if (val == 0) {
				*end-- = '0';
			} else {
				for (; val != 0; val /= 16)
					*end-- = "0123456789abcdef"[val % 16];
			}
		}
	} else {
		dtrace_dif_fault(c->m, DTRACE_CPUF_ILLOP, (uintptr_t)af);
		ret(c, 0);
		return;
	}
out:
	c->m->dtms_scratch_ptr += size;
	ret(c, (uintptr_t)(end + 1));
}

/* --- json() ------------------------------------------------------------------------------ */

enum json_state {
	JS_REST = 1,	   /* before the top-level object or array */
	JS_OBJECT,	   /* expecting a key string */
	JS_STRING,	   /* inside a string */
	JS_STRING_ESCAPE,  /* after a backslash */
	JS_STRING_UNICODE, /* inside \uXXXX */
	JS_COLON,
	JS_COMMA,
	JS_VALUE,
	JS_IDENTIFIER,	   /* true, false, null */
	JS_NUMBER,
	JS_NUMBER_FRAC,
	JS_NUMBER_EXP,
	JS_COLLECT	   /* copying a whole nested object or array */
};

static bool
js_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

static bool
js_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* Compare NUL-terminated core strings. */
static bool
js_streq(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Array position named by a selector element (decimal), as strtoll does. */
static int64_t
js_index(const char *e)
{
	int64_t v = 0;

	while (js_digit(*e))
		v = v * 10 + (*e++ - '0');
	return v;
}

/*
 * Extract the value named by the packed selector list `elem` (nelems
 * NUL-separated keys or array indices) from the JSON text at `json`, reading
 * at most `size` bytes; the value is written to `dest` (which has room for
 * `size` bytes).  NULL on any parse error or missing key.
 */
static char *
dif_json(dtrace_mstate_t *m, uint64_t size, uintptr_t json, const char *elem, int nelems,
	 char *dest)
{
	enum json_state st = JS_REST;
	int64_t array_elem = INT64_MIN, array_pos = 0;
	int unicount = 0;
	bool is_key = false, collecting = false, found = false, in_array = false;
	uint32_t braces = 0, brackets = 0;
	char *dd = dest, *dlim = dest + size - 1;

	for (uintptr_t cur = json; cur < json + size; cur++) {
		char ch = (char)dtrace_dif_load8(m, cur);

		if (ch == '\0' || dtrace_dif_faulted(m))
			return NULL;
		if (dd >= dlim)
			return NULL; /* cannot happen with dest sized like json; stay safe */

		switch (st) {
		case JS_REST:
			if (js_space(ch))
				break;
			if (ch == '{') {
				st = JS_OBJECT;
				break;
			}
			if (ch == '[') {
				in_array = true;
				array_pos = 0;
				array_elem = js_index(elem);
				found = array_elem == 0;
				st = JS_VALUE;
				break;
			}
			return NULL; /* no top-level object or array */
		case JS_OBJECT:
			if (js_space(ch))
				break;
			if (ch == '"') {
				st = JS_STRING;
				is_key = true;
				break;
			}
			return NULL; /* no key where one must be */
		case JS_STRING:
			if (ch == '\\') {
				*dd++ = '\\';
				st = JS_STRING_ESCAPE;
				break;
			}
			if (ch == '"') {
				if (collecting) {
					*dd++ = ch;
					collecting = false;
					st = JS_COLLECT;
					break;
				}
				*dd = '\0';
				dd = dest;
				if (is_key) {
					if (js_streq(dest, elem))
						found = true;
				} else if (found) {
					return nelems > 1 ? NULL : dest;
				}
				st = is_key ? JS_COLON : JS_COMMA;
				is_key = false;
				break;
			}
			*dd++ = ch;
			break;
		case JS_STRING_ESCAPE:
			*dd++ = ch;
			if (ch == 'u') {
				unicount = 0;
				st = JS_STRING_UNICODE;
			} else {
				st = JS_STRING;
			}
			break;
		case JS_STRING_UNICODE:
			if (!(js_digit(ch) || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F')))
				return NULL; /* \u needs four hex digits */
			*dd++ = ch;
			if (++unicount == 4)
				st = JS_STRING;
			break;
		case JS_COLON:
			if (js_space(ch))
				break;
			if (ch == ':') {
				st = JS_VALUE;
				break;
			}
			return NULL;
		case JS_COMMA:
			if (js_space(ch))
				break;
			if (ch == ',') {
				if (in_array) {
					st = JS_VALUE;
					if (++array_pos == array_elem)
						found = true;
				} else {
					st = JS_OBJECT;
				}
				break;
			}
			return NULL; /* end of object/array without the key */
		case JS_IDENTIFIER:
			if (ch >= 'a' && ch <= 'z') {
				*dd++ = ch;
				break;
			}
			*dd = '\0';
			dd = dest;
			if (js_streq(dest, "true") || js_streq(dest, "false") ||
			    js_streq(dest, "null")) {
				if (found)
					return nelems > 1 ? NULL : dest;
				cur--; /* this character ends the value: see it again */
				st = JS_COMMA;
				break;
			}
			return NULL;
		case JS_NUMBER:
			if (ch == '.') {
				*dd++ = ch;
				st = JS_NUMBER_FRAC;
				break;
			}
			if (ch == 'x' || ch == 'X')
				return NULL; /* no hexadecimal in JSON */
			/* FALLTHROUGH */
		case JS_NUMBER_FRAC:
			if (ch == 'e' || ch == 'E') {
				*dd++ = ch;
				st = JS_NUMBER_EXP;
				break;
			}
			if (ch == '+' || ch == '-')
				return NULL; /* a sign only in the exponent */
			/* FALLTHROUGH */
		case JS_NUMBER_EXP:
			if (js_digit(ch) || ch == '+' || ch == '-') {
				*dd++ = ch;
				break;
			}
			*dd = '\0';
			dd = dest;
			if (found)
				return nelems > 1 ? NULL : dest;
			cur--;
			st = JS_COMMA;
			break;
		case JS_VALUE:
			if (js_space(ch))
				break;
			if (ch == '{' || ch == '[') {
				if (nelems > 1 && found) {
					/* Descend: the next selector applies inside. */
					in_array = ch == '[';
					while (*elem != '\0')
						elem++;
					elem++;
					nelems--;
					dd = dest;
					if (in_array) {
						st = JS_VALUE;
						array_pos = 0;
						array_elem = js_index(elem);
						found = array_elem == 0;
					} else {
						found = false;
						st = JS_OBJECT;
					}
					break;
				}
				/* Skip it, or return it whole if it is the value. */
				if (ch == '[')
					brackets = 1;
				else
					braces = 1;
				*dd++ = ch;
				st = JS_COLLECT;
				break;
			}
			if (ch == '"') {
				st = JS_STRING;
				break;
			}
			if (ch >= 'a' && ch <= 'z') {
				*dd++ = ch;
				st = JS_IDENTIFIER;
				break;
			}
			if (ch == '-' || js_digit(ch)) {
				*dd++ = ch;
				st = JS_NUMBER;
				break;
			}
			return NULL;
		case JS_COLLECT:
			*dd++ = ch;
			if (ch == '"') {
				collecting = true;
				st = JS_STRING;
				break;
			}
			if (ch == ']') {
				if (brackets-- == 0)
					return NULL;
			} else if (ch == '}') {
				if (braces-- == 0)
					return NULL;
			} else if (ch == '{') {
				braces++;
			} else if (ch == '[') {
				brackets++;
			}
			if (brackets == 0 && braces == 0) {
				if (found) {
					*dd = '\0';
					return dest;
				}
				dd = dest;
				st = JS_COMMA;
			}
			break;
		}
	}
	return NULL;
}

/* json(text, "a.b[2].c"): the selected value as a string, or NULL. */
static void
subr_json(dif_call_t *c)
{
	uintptr_t json = arg(c, 0), elem = arg(c, 1);
	size_t size = dtrace_dif_strsize(c->state), jsonlen, elemlen;
	char *dest, *list, *ee;
	int nelems = 1;

	jsonlen = dtrace_dif_strlen(c->m, json, size);
	elemlen = dtrace_dif_strlen(c->m, elem, size);
	if (dtrace_dif_faulted(c->m))
		return;
	if (!dtrace_dif_canload(json, jsonlen + 1, c->m, c->vs) ||
	    !dtrace_dif_canload(elem, elemlen + 1, c->m, c->vs)) {
		ret(c, 0);
		return;
	}
	if ((dest = scratch_peek(c, jsonlen + 1 + elemlen + 1)) == NULL)
		return;
	/* "a.b[2]" becomes "a\0b\02\0"; a leading '[' selects in a top-level array. */
	list = ee = dest + jsonlen + 1;
	for (size_t i = 0; i < elemlen; i++) {
		char ch = (char)dtrace_dif_load8(c->m, elem + i);

		if ((i == 0 && ch == '[') || ch == ']')
			continue;
		if (ch == '.' || ch == '[') {
			nelems++;
			ch = '\0';
		}
		*ee++ = ch;
	}
	*ee = '\0';
	if ((dest = dif_json(c->m, jsonlen + 1, json, list, nelems, dest)) != NULL)
		c->m->dtms_scratch_ptr += jsonlen + 1;
	ret(c, (uintptr_t)dest);
}

/* --- Dispatch ---------------------------------------------------------------------------- */

static dif_subr_fn_t *const dif_subr_fns[DIF_SUBR_MAX + 1] = {
	[DIF_SUBR_RAND] = subr_rand,
	[DIF_SUBR_COPYIN] = subr_alloca_copyin,
	[DIF_SUBR_COPYINSTR] = subr_copyinstr,
	[DIF_SUBR_SPECULATION] = subr_speculation,
	[DIF_SUBR_PROGENYOF] = subr_progenyof,
	[DIF_SUBR_STRLEN] = subr_strlen,
	[DIF_SUBR_COPYOUT] = subr_copyout,
	[DIF_SUBR_COPYOUTSTR] = subr_copyoutstr,
	[DIF_SUBR_ALLOCA] = subr_alloca_copyin,
	[DIF_SUBR_BCOPY] = subr_bcopy,
	[DIF_SUBR_COPYINTO] = subr_copyinto,
	[DIF_SUBR_GETMAJOR] = subr_getmajor_minor,
	[DIF_SUBR_GETMINOR] = subr_getmajor_minor,
	[DIF_SUBR_STRJOIN] = subr_strjoin,
	[DIF_SUBR_LLTOSTR] = subr_lltostr,
	[DIF_SUBR_BASENAME] = subr_basename_dirname,
	[DIF_SUBR_DIRNAME] = subr_basename_dirname,
	[DIF_SUBR_CLEANPATH] = subr_cleanpath,
	[DIF_SUBR_STRCHR] = subr_strchr,
	[DIF_SUBR_STRRCHR] = subr_strchr,
	[DIF_SUBR_STRSTR] = subr_strstr,
	[DIF_SUBR_STRTOK] = subr_strtok,
	[DIF_SUBR_SUBSTR] = subr_substr,
	[DIF_SUBR_INDEX] = subr_strstr,
	[DIF_SUBR_RINDEX] = subr_strstr,
	[DIF_SUBR_HTONS] = subr_byteswap,
	[DIF_SUBR_HTONL] = subr_byteswap,
	[DIF_SUBR_HTONLL] = subr_byteswap,
	[DIF_SUBR_NTOHS] = subr_byteswap,
	[DIF_SUBR_NTOHL] = subr_byteswap,
	[DIF_SUBR_NTOHLL] = subr_byteswap,
	[DIF_SUBR_INET_NTOP] = subr_inet,
	[DIF_SUBR_INET_NTOA] = subr_inet,
	[DIF_SUBR_INET_NTOA6] = subr_inet,
	[DIF_SUBR_TOUPPER] = subr_toupper_lower,
	[DIF_SUBR_TOLOWER] = subr_toupper_lower,
	[DIF_SUBR_JSON] = subr_json,
	[DIF_SUBR_STRTOLL] = subr_strtoll,
	[DIF_SUBR_MEMREF] = subr_memref,
	[DIF_SUBR_MEMSTR] = subr_memstr,
};

void
dtrace_dif_subr(uint32_t subr, uint32_t rd, uint64_t *regs, const dtrace_key_t *tupregs,
		int nargs, dtrace_mstate_t *mstate, dtrace_vstate_t *vs, dtrace_state_t *state)
{
	dif_call_t c = {regs, rd, tupregs, nargs, mstate, vs, state, subr};

	if (subr > DIF_SUBR_MAX || dif_subr_fns[subr] == NULL) {
		/* Validation refuses these; never run what is not implemented. */
		dtrace_dif_fault(mstate, DTRACE_CPUF_ILLOP, subr);
		return;
	}
	dif_subr_fns[subr](&c);
}
