/*
 * inst/inst_site.c: making sites, attaching probes, placing and removing
 * breakpoints.  Never probe context; the caller serialises (see inst.h).
 *
 * A site is made once per (key, address) and kept until inst_fini(): its
 * instruction is read and prepared when it is made, and its trampoline, if
 * the ISA wants one, is allocated and written then, before any breakpoint
 * can send a thread there.  Enabling writes the breakpoint after the site
 * is reachable from the tables, and disabling writes the original bytes
 * back; a thread that trapped in between finds the site and steps the
 * instruction whether or not the breakpoint is still there.
 */
#include "inst_impl.h"

static inst_accept_fn_t inst_accept;
const inst_jump_ops_t *inst_jump_ops;

static inst_site_t *site_find(uint64_t key, uintptr_t addr);

void
inst_set_jump(const inst_jump_ops_t *ops)
{
	inst_jump_ops = ops;
}

/* The site is never to be jumped (again): the jump, if written, gives way
 * to the breakpoint, and traps step the instruction alone from now on. */
static void
site_jump_refuse(inst_site_t *s)
{
	if (s->is_jstate == INST_JUMP_REFUSED)
		return;
	if (dtrace_load_acquire32(&s->is_jumped) && inst_jump_ops != NULL)
		inst_jump_ops->ijo_disarm(s);
	s->is_jstate = INST_JUMP_REFUSED;
	dtrace_store_release64(&s->is_jcopy, 0);
}

/* A site being made at addr lies inside the bytes another site's jump
 * replaces (or would): that one goes back to its breakpoint for good,
 * before the new site's breakpoint could land in its jump. */
static void
site_jump_overlap(uint64_t key, uintptr_t addr)
{
	for (uintptr_t back = 1; back < 2 * ISA_INSN_MAXLEN && back <= addr; back++) {
		inst_site_t *o = site_find(key, addr - back);

		if (o != NULL && o->is_jstate == INST_JUMP_CAPABLE && back < o->is_jlen)
			site_jump_refuse(o);
	}
}

void
inst_set_accept(inst_accept_fn_t fn)
{
	inst_accept = fn;
}

int
inst_init(uint32_t nbuckets)
{
	inst_table_t *t;
	uint32_t n = 1;

	if (inst_table != NULL)
		return DTRACE_EBUSY;
	if (nbuckets == 0)
		nbuckets = INST_DEFAULT_BUCKETS;
	while (n < nbuckets && n < (1U << 24))
		n <<= 1;
	if ((t = dtrace_port_zalloc(sizeof(*t))) == NULL)
		return DTRACE_ENOMEM;
	t->it_sites = dtrace_port_zalloc(n * sizeof(t->it_sites[0]));
	t->it_tramps = dtrace_port_zalloc(n * sizeof(t->it_tramps[0]));
	if (t->it_sites == NULL || t->it_tramps == NULL) {
		if (t->it_sites != NULL)
			dtrace_port_free((void *)t->it_sites, n * sizeof(t->it_sites[0]));
		if (t->it_tramps != NULL)
			dtrace_port_free((void *)t->it_tramps, n * sizeof(t->it_tramps[0]));
		dtrace_port_free(t, sizeof(*t));
		return DTRACE_ENOMEM;
	}
	t->it_nbuckets = n;
	t->it_magic = INST_TABLE_MAGIC;
	inst_table = t;
	return 0;
}

void
inst_fini(void)
{
	inst_table_t *t = inst_table;
	inst_site_t *s, *next;
	inst_recipe_t *r, *rnext;

	if (t == NULL)
		return;
	inst_table = NULL;
	for (s = t->it_all; s != NULL; s = next) {
		next = s->is_anext;
		dtrace_port_free(s, sizeof(*s));
	}
	for (r = t->it_recipes; r != NULL; r = rnext) {
		rnext = r->ir_next;
		dtrace_port_free(r, sizeof(*r));
	}
	dtrace_port_free((void *)t->it_sites, t->it_nbuckets * sizeof(t->it_sites[0]));
	dtrace_port_free((void *)t->it_tramps, t->it_nbuckets * sizeof(t->it_tramps[0]));
	dtrace_port_free(t, sizeof(*t));
}

static inst_site_t *
site_find(uint64_t key, uintptr_t addr)
{
	inst_site_t *s;

	for (s = inst_table->it_sites[inst_hash(inst_table, key, addr)]; s != NULL; s = s->is_next)
		if (s->is_key == key && s->is_addr == addr && !s->is_dead)
			return s;
	return NULL;
}

inst_site_t *
inst_site_at(uint64_t key, uintptr_t addr)
{
	return inst_table != NULL ? site_find(key, addr) : NULL;
}

/* Allocate and write the out-of-line code the ISA asked for. */
static int
site_tramp(inst_site_t *s)
{
	uint8_t code[256];
	size_t len;
	int err;

	if (s->is_insn.pi_tramp_len == 0)
		return 0;
	if (s->is_insn.pi_tramp_len > sizeof(code))
		return DTRACE_EINVAL;
	if ((err = dtrace_port_tramp_alloc(s->is_as, s->is_insn.pi_tramp_len, &s->is_tramp)) != 0)
		return err;
	len = isa_probe_tramp(&s->is_insn, s->is_addr, s->is_tramp, code, sizeof(code));
	if (len == 0 || len > s->is_insn.pi_tramp_len)
		return DTRACE_EINVAL;
	if ((err = dtrace_port_text_write(s->is_as, s->is_tramp, code, len)) != 0)
		return err;
	if (s->is_insn.pi_tramp_bp != 0)
		s->is_tramp_bp = s->is_tramp + s->is_insn.pi_tramp_bp - 1;
	return 0;
}

int
inst_site_get(void *as, uint64_t key, uintptr_t addr, inst_site_t **sitep)
{
	uint8_t code[ISA_INSN_MAXLEN];
	inst_site_t *s;
	uint32_t b;
	size_t avail;
	int err;

	if (inst_table == NULL)
		return DTRACE_EINVAL;
	if ((s = site_find(key, addr)) != NULL) {
		*sitep = s;
		return 0;
	}
	/* The instruction may end closer to the end of the mapping than
	 * ISA_INSN_MAXLEN: read less until it reads. */
	for (avail = sizeof(code); avail > 0; avail--)
		if (dtrace_port_text_read(as, addr, code, avail) == 0)
			break;
	if (avail == 0)
		return DTRACE_EFAULT;
	if (inst_jump_ops != NULL)
		site_jump_overlap(key, addr);
	if ((s = dtrace_port_zalloc(sizeof(*s))) == NULL)
		return DTRACE_ENOMEM;
	s->is_key = key;
	s->is_addr = addr;
	s->is_as = as;
	if (isa_probe_prepare(code, avail, addr, &s->is_insn) != 0) {
		dtrace_port_free(s, sizeof(*s));
		return DTRACE_EINVAL;
	}
	if (inst_accept != NULL && !inst_accept(addr, &s->is_insn)) {
		dtrace_port_free(s, sizeof(*s));
		return DTRACE_ENOTSUP;
	}
	s->is_bplen = (uint32_t)isa_breakpoint_insn(s->is_insn.pi_len, s->is_bp, sizeof(s->is_bp));
	if (s->is_bplen == 0 || s->is_bplen > s->is_insn.pi_len) {
		dtrace_port_free(s, sizeof(*s));
		return DTRACE_EINVAL;
	}
	if ((err = site_tramp(s)) != 0) {
		/* trampoline memory is never given back (inst.h "Memory") */
		dtrace_port_free(s, sizeof(*s));
		return err;
	}
	b = inst_hash(inst_table, key, addr);
	s->is_next = inst_table->it_sites[b];
	s->is_anext = inst_table->it_all;
	inst_table->it_all = s;
	if (s->is_tramp_bp != 0) {
		uint32_t tb = inst_hash(inst_table, key, s->is_tramp_bp);

		s->is_tnext = inst_table->it_tramps[tb];
		dtrace_store_releaseptr((void *volatile *)&inst_table->it_tramps[tb], s);
	}
	dtrace_store_releaseptr((void *volatile *)&inst_table->it_sites[b], s);
	*sitep = s;
	return 0;
}

static inst_probe_t *
site_probe(inst_site_t *s, dtrace_id_t id)
{
	for (unsigned i = 0; i < INST_SITE_MAXPROBES; i++)
		if (s->is_probes[i].ip_id == id)
			return &s->is_probes[i];
	return NULL;
}

int
inst_site_add_probe(inst_site_t *s, dtrace_id_t id, inst_kind_t kind, uintptr_t func)
{
	inst_probe_t *p;

	if (id == 0)
		return DTRACE_EINVAL;
	if (site_probe(s, id) != NULL)
		return 0;
	if ((p = site_probe(s, 0)) == NULL)
		return DTRACE_ENOSPC;
	/* jump/ takes sites of entry probes only */
	if (kind != INST_ENTRY)
		site_jump_refuse(s);
	p->ip_enabled = 0;
	p->ip_kind = (uint32_t)kind;
	p->ip_func = func;
	p->ip_args = NULL;
	dtrace_membar_producer();
	p->ip_id = id;
	return 0;
}

void
inst_site_remove_probe(inst_site_t *s, dtrace_id_t id)
{
	inst_probe_t *p = site_probe(s, id);

	if (p == NULL)
		return;
	inst_probe_disable(s, id);
	p->ip_id = 0;
}

static int
site_write(inst_site_t *s, bool patch)
{
	const uint8_t *bytes = patch ? s->is_bp : s->is_insn.pi_orig;
	int err;

	if ((err = dtrace_port_text_write(s->is_as, s->is_addr, bytes, s->is_bplen)) != 0)
		return err;
	dtrace_store_release32(&s->is_patched, patch ? 1 : 0);
	return 0;
}

int
inst_probe_enable(inst_site_t *s, dtrace_id_t id)
{
	inst_probe_t *p = site_probe(s, id);
	int err;

	if (p == NULL || s->is_dead)
		return DTRACE_ENOENT;
	if (p->ip_enabled)
		return 0;
	dtrace_store_release32(&p->ip_enabled, 1);
	if (s->is_nenabled++ == 0 && !s->is_patched) {
		if ((err = site_write(s, true)) != 0) {
			s->is_nenabled--;
			dtrace_store_release32(&p->ip_enabled, 0);
			return err;
		}
		if (inst_jump_ops != NULL)
			inst_jump_ops->ijo_arm(s);
	}
	return 0;
}

void
inst_probe_disable(inst_site_t *s, dtrace_id_t id)
{
	inst_probe_t *p = site_probe(s, id);

	if (p == NULL || !p->ip_enabled)
		return;
	dtrace_store_release32(&p->ip_enabled, 0);
	/* If the space is gone the write fails: nothing is left to mend. */
	if (--s->is_nenabled == 0 && s->is_patched && !s->is_dead) {
		if (dtrace_load_acquire32(&s->is_jumped) && inst_jump_ops != NULL)
			inst_jump_ops->ijo_disarm(s);
		(void)site_write(s, false);
	}
}

uintptr_t
inst_site_addr(const inst_site_t *site)
{
	return site->is_addr;
}
