/*
 * inst/inst_space.c: what a second process needs of the engine besides
 * the trap path: adopting the tables (inst_attach) and putting back the
 * original bytes of a space's sites (an agent whose consumer died, a
 * forked child mending the text it inherited).  Kept apart from the
 * site-making code so that such a process links no instruction decoder.
 * Not probe context.
 */
#include "inst_impl.h"

void *
inst_handle(void)
{
	return inst_table;
}

int
inst_attach(void *handle)
{
	inst_table_t *t = handle;

	if (t == NULL || t->it_magic != INST_TABLE_MAGIC)
		return DTRACE_EINVAL;
	inst_table = t;
	return 0;
}

/*
 * A jumped site's bytes go back in the order that never lets a thread
 * run a mix of old and new bytes: the breakpoint over the jump's first
 * byte (a thread that takes it resumes in the copy, inst_trap), then the
 * rest of the replaced bytes; the caller then writes back the first.
 * Each write is a text write of the port's, which makes the space's
 * threads fetch afresh where it can (Linux: membarrier).  Only the jump's
 * own isa_jump_len bytes differ from the original text.
 */
static int
restore_jump(inst_site_t *s, void *as)
{
	int err;

	if ((err = dtrace_port_text_write(as, s->is_addr, s->is_bp, s->is_bplen)) != 0)
		return err;
	return dtrace_port_text_write(as, s->is_addr + s->is_bplen, s->is_jorig + s->is_bplen,
				      isa_jump_len - s->is_bplen);
}

int
inst_space_restore(uint64_t key, void *as, bool shared)
{
	inst_site_t *s;
	int err, first = 0;

	if (inst_table == NULL)
		return 0;
	for (s = inst_table->it_all; s != NULL; s = s->is_anext) {
		if (s->is_key != key || !s->is_patched)
			continue;
		if (dtrace_load_acquire32(&s->is_jumped) && (err = restore_jump(s, as)) != 0) {
			if (first == 0)
				first = err;
			continue;
		}
		err = dtrace_port_text_write(as, s->is_addr, s->is_insn.pi_orig, s->is_bplen);
		if (err != 0 && first == 0)
			first = err;
		if (err == 0 && shared) {
			dtrace_store_release32(&s->is_jumped, 0);
			dtrace_store_release32(&s->is_patched, 0);
		}
	}
	return first;
}

void
inst_space_forget(uint64_t key)
{
	inst_site_t *s;

	if (inst_table == NULL)
		return;
	for (s = inst_table->it_all; s != NULL; s = s->is_anext) {
		if (s->is_key != key)
			continue;
		s->is_dead = 1;
		dtrace_store_release32(&s->is_jumped, 0);
		dtrace_store_release32(&s->is_patched, 0);
		for (unsigned i = 0; i < INST_SITE_MAXPROBES; i++)
			dtrace_store_release32(&s->is_probes[i].ip_enabled, 0);
		s->is_nenabled = 0;
	}
}

void
inst_space_prune(uint64_t key, bool (*mapped)(uintptr_t addr, void *arg), void *arg)
{
	inst_site_t *s;

	if (inst_table == NULL)
		return;
	for (s = inst_table->it_all; s != NULL; s = s->is_anext) {
		if (s->is_key != key || s->is_dead || mapped(s->is_addr, arg))
			continue;
		s->is_dead = 1;
		dtrace_store_release32(&s->is_jumped, 0);
		dtrace_store_release32(&s->is_patched, 0);
		for (unsigned i = 0; i < INST_SITE_MAXPROBES; i++)
			dtrace_store_release32(&s->is_probes[i].ip_enabled, 0);
		s->is_nenabled = 0;
	}
}
