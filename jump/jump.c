/*
 * jump/jump.c: arming and disarming jump-patched sites (jump.h).
 * Outside probe context, serialised by inst/'s caller.
 */
#include "inst_impl.h"
#include "jump.h"

/* A scanned range: one bit per byte of text, set where a direct branch,
 * jump or call lands.  Private memory of the process that arms. */
typedef struct jump_text {
	uint64_t jt_key;
	uintptr_t jt_lo, jt_hi;
	uint8_t *jt_bits;
	struct jump_text *jt_next;
} jump_text_t;

#define JUMP_SCAN_CHUNK 65536
#define JUMP_TRAMP_MAX 256
#define JUMP_TEXT_MAX ((uintptr_t)1 << 30) /* larger ranges are not scanned: refused */

static const jump_port_t *jport;
static jump_text_t *jtexts;
static uint8_t jscan_buf[JUMP_SCAN_CHUNK + ISA_INSN_MAXLEN];

static void jump_arm(inst_site_t *s);
static void jump_disarm(inst_site_t *s);
static const inst_jump_ops_t jump_ops = {jump_arm, jump_disarm};

int
jump_init(const jump_port_t *port)
{
	if (port == NULL || isa_jump_len == 0)
		return DTRACE_ENOTSUP;
	jport = port;
	inst_set_jump(&jump_ops);
	return 0;
}

void
jump_fini(void)
{
	inst_set_jump(NULL);
	while (jtexts != NULL)
		jump_space_forget(jtexts->jt_key);
	jport = NULL;
}

void
jump_space_forget(uint64_t key)
{
	jump_text_t **pp = &jtexts, *t;

	while ((t = *pp) != NULL) {
		if (t->jt_key != key) {
			pp = &t->jt_next;
			continue;
		}
		*pp = t->jt_next;
		dtrace_port_free_private(t->jt_bits, (t->jt_hi - t->jt_lo + 7) / 8);
		dtrace_port_free_private(t, sizeof(*t));
	}
}

/* The text as the program was built: the bytes of every patched site of
 * the space in buf (text at addr, len bytes) put back. */
static void
jump_unpatch(uint64_t key, uintptr_t addr, uint8_t *buf, size_t len)
{
	for (inst_site_t *s = inst_table->it_all; s != NULL; s = s->is_anext) {
		const uint8_t *orig = s->is_jumped ? s->is_jorig : s->is_insn.pi_orig;
		size_t n = s->is_jumped ? isa_jump_len : s->is_bplen;

		if (s->is_key != key || !s->is_patched || s->is_dead)
			continue;
		for (size_t i = 0; i < n; i++)
			if (s->is_addr + i >= addr && s->is_addr + i < addr + len)
				buf[s->is_addr + i - addr] = orig[i];
	}
}

/*
 * Every direct branch target in [lo, hi), by a linear sweep of the text as
 * built (an undecodable byte is stepped over; x86 compilers keep their
 * jump tables out of text, and a sweep falls back into step within a few
 * instructions of any padding).
 */
static jump_text_t *
jump_scan(void *as, uint64_t key, uintptr_t lo, uintptr_t hi)
{
	jump_text_t *t;
	uintptr_t at = lo;
	isa_insn_t in;

	if ((t = dtrace_port_zalloc_private(sizeof(*t))) == NULL)
		return NULL;
	if ((t->jt_bits = dtrace_port_zalloc_private((hi - lo + 7) / 8)) == NULL) {
		dtrace_port_free_private(t, sizeof(*t));
		return NULL;
	}
	t->jt_key = key;
	t->jt_lo = lo;
	t->jt_hi = hi;
	while (at < hi) {
		size_t want = hi - at < sizeof(jscan_buf) ? hi - at : sizeof(jscan_buf);
		size_t off = 0, end = want < JUMP_SCAN_CHUNK ? want : JUMP_SCAN_CHUNK;

		if (dtrace_port_text_read(as, at, jscan_buf, want) != 0)
			goto fail;
		/* a breakpoint over a branch would hide its target */
		jump_unpatch(key, at, jscan_buf, want);
		/* instructions that start in the chunk; the tail of the buffer
		 * lets the last of them end past it */
		while (off < end) {
			if (isa_insn_decode(jscan_buf + off, want - off, at + off, &in) != 0 ||
			    in.ii_len == 0) {
				off++;
				continue;
			}
			if ((in.ii_flags & (ISA_INSN_JUMP | ISA_INSN_COND | ISA_INSN_CALL)) != 0 &&
			    (in.ii_flags & ISA_INSN_INDIRECT) == 0 && in.ii_target >= lo &&
			    in.ii_target < hi)
				t->jt_bits[(in.ii_target - lo) / 8] |=
					(uint8_t)(1U << ((in.ii_target - lo) % 8));
			off += in.ii_len;
		}
		at += off;
	}
	t->jt_next = jtexts;
	jtexts = t;
	return t;
fail:
	dtrace_port_free_private(t->jt_bits, (hi - lo + 7) / 8);
	dtrace_port_free_private(t, sizeof(*t));
	return NULL;
}

/* Does any direct branch of the text around addr land in (addr, addr + len)?
 * True too when that cannot be told. */
static bool
jump_entered(void *as, uint64_t key, uintptr_t addr, size_t len)
{
	jump_text_t *t;
	uintptr_t lo, hi;

	for (t = jtexts; t != NULL; t = t->jt_next)
		if (t->jt_key == key && addr >= t->jt_lo && addr < t->jt_hi)
			break;
	if (t == NULL) {
		if (jport->jp_text(as, addr, &lo, &hi) != 0 || addr < lo || addr + len > hi ||
		    hi - lo > JUMP_TEXT_MAX)
			return true;
		if ((t = jump_scan(as, key, lo, hi)) == NULL)
			return true;
	}
	if (addr + len > t->jt_hi)
		return true;
	for (size_t k = 1; k < len; k++) {
		uintptr_t b = addr + k - t->jt_lo;

		if (t->jt_bits[b / 8] & (1U << (b % 8)))
			return true;
	}
	return false;
}

/* Work out the replaced instructions and write the trampoline: 0, or the
 * site is refused. */
static int
jump_prepare(inst_site_t *s)
{
	uint8_t code[2 * ISA_INSN_MAXLEN], tramp[JUMP_TRAMP_MAX], jmp[ISA_INSN_MAXLEN];
	size_t avail, len = 0, n, off;
	uintptr_t entry, run, write;
	isa_insn_t in;

	/* the first instruction from the site (its text holds the
	 * breakpoint now), the rest from the text */
	memcpy(code, s->is_insn.pi_orig, s->is_insn.pi_len);
	for (avail = sizeof(code); avail > s->is_insn.pi_len; avail--)
		if (dtrace_port_text_read(s->is_as, s->is_addr + s->is_insn.pi_len,
					  code + s->is_insn.pi_len, avail - s->is_insn.pi_len) == 0)
			break;
	while (len < isa_jump_len) {
		if (isa_insn_decode(code + len, avail - len, s->is_addr + len, &in) != 0 ||
		    in.ii_len == 0 || in.ii_flags != 0)
			return -1;
		len += in.ii_len;
	}
	for (size_t k = 1; k < len; k++)
		if (inst_site_at(s->is_key, s->is_addr + k) != NULL)
			return -1;
	if (jump_entered(s->is_as, s->is_key, s->is_addr, len))
		return -1;
	if ((entry = jport->jp_entry(s->is_as)) == 0)
		return -1;
	n = isa_jump_tramp(s->is_addr, code, len, entry, tramp, sizeof(tramp), &off);
	if (n == 0 || jport->jp_tramp(s->is_as, s->is_addr, n, &run, &write) != 0)
		return -1;
	if (isa_jump_insn(s->is_addr, run, jmp, sizeof(jmp)) != isa_jump_len ||
	    dtrace_port_text_write(s->is_as, write, tramp, n) != 0)
		return -1; /* (trampoline memory is never given back) */
	memcpy(s->is_jorig, code, isa_jump_len);
	s->is_jlen = (uint32_t)len;
	s->is_jtramp = run;
	s->is_jstate = INST_JUMP_CAPABLE;
	dtrace_store_release64(&s->is_jcopy, run + off);
	return 0;
}

static void
jump_arm(inst_site_t *s)
{
	uint8_t jmp[ISA_INSN_MAXLEN];
	size_t bp = s->is_bplen;

	/* (a site with a probe of another kind than entry is refused by
	 * inst_site_add_probe) */
	if (jport == NULL || s->is_jstate == INST_JUMP_REFUSED || s->is_dead || !s->is_patched ||
	    s->is_jumped)
		return;
	if (s->is_jstate == INST_JUMP_UNTRIED && jump_prepare(s) != 0) {
		s->is_jstate = INST_JUMP_REFUSED;
		return;
	}
	if (isa_jump_insn(s->is_addr, s->is_jtramp, jmp, sizeof(jmp)) != isa_jump_len)
		return;
	/* Nobody among the replaced bytes, and nobody can get there but
	 * through the breakpoint, which resumes in the copy. */
	if (jport->jp_quiesce(s->is_as, s->is_addr, s->is_addr + s->is_jlen, s->is_jcopy) != 0)
		return;
	if (dtrace_port_text_write(s->is_as, s->is_addr + bp, jmp + bp, isa_jump_len - bp) != 0)
		goto untail;
	if (jport->jp_sync(s->is_as) != 0)
		goto untail;
	if (dtrace_port_text_write(s->is_as, s->is_addr, jmp, bp) != 0)
		goto untail;
	dtrace_store_release32(&s->is_jumped, 1);
	return;
untail:
	/* the breakpoint is still first: the tail is never run */
	(void)dtrace_port_text_write(s->is_as, s->is_addr + bp, s->is_jorig + bp, isa_jump_len - bp);
}

static void
jump_disarm(inst_site_t *s)
{
	size_t bp = s->is_bplen;

	if (jport == NULL || !s->is_jumped)
		return;
	(void)dtrace_port_text_write(s->is_as, s->is_addr, s->is_bp, bp);
	dtrace_store_release32(&s->is_jumped, 0);
	(void)jport->jp_sync(s->is_as);
	(void)dtrace_port_text_write(s->is_as, s->is_addr + bp, s->is_jorig + bp, isa_jump_len - bp);
	(void)jport->jp_sync(s->is_as);
}
