/*
 * inst/inst_trap.c: a breakpoint of a site trapped (probe context).
 *
 * The port calls inst_trap() from its trap handler with the interrupted
 * registers, already published for uregs[], ustack() and argument fetch.
 * The site's enabled probes fire in kind order (entry, offset, return,
 * USDT), so a one-instruction function's entry comes before its return.
 * Entry and offset probes pass the first five argument registers; return
 * probes pass the return instruction's offset in its function and the
 * return-value register, as DTrace's pid provider does; USDT probes pass
 * what their recipes say (inst_args.c) and publish every argument in the
 * thread's inst_thread_t while they fire.  An enabled is-enabled probe
 * replaces its instruction: the return-value register reads 1.  Then the ISA steps the
 * original instruction (emulated, or out of line in the site's
 * trampoline).  No allocation, no lock; every loop is bounded by the
 * chain lengths of tables that only grow outside probe context and by
 * INST_SITE_MAXPROBES.
 */
#include "inst_impl.h"

/* The tables, in the process that made them or one that attached them. */
inst_table_t *inst_table;
/* This process's hook for INST_HOOK sites. */
static inst_hook_fn_t inst_hook;

void
inst_set_hook(inst_hook_fn_t fn)
{
	__atomic_store_n(&inst_hook, fn, __ATOMIC_RELEASE);
}

/* The ABI's return-value register is the nofault primitives' first result
 * register on every supported processor (rax, x0, a0). */
#define INST_REG_RETVAL ISA_REG_RET0

static inst_site_t *
trap_site(uint64_t key, uintptr_t addr)
{
	inst_table_t *t = dtrace_load_acquireptr((void *const volatile *)&inst_table);
	inst_site_t *s;

	if (t == NULL)
		return NULL;
	s = dtrace_load_acquireptr((void *const volatile *)&t->it_sites[inst_hash(t, key, addr)]);
	for (; s != NULL; s = dtrace_load_acquireptr((void *const volatile *)&s->is_next))
		if (s->is_key == key && s->is_addr == addr && !s->is_dead)
			return s;
	return NULL;
}

/* An INST_USDT probe: its arguments from the recipe, the first five
 * passed and all of them published for the port's argument fetch (when
 * there is a thread to publish them in: inst_fire's callers, kernels,
 * make no USDT sites). */
static void
trap_fire_usdt(const inst_probe_t *p, dtrace_id_t id, const isa_regs_t *regs, inst_thread_t *thr)
{
	const inst_args_t *ra = p->ip_args;
	uint64_t v[INST_ARGS_MAX];
	const uint64_t *outer;
	uint32_t outer_n, n, i;

	n = ra != NULL && ra->ia_nargs <= INST_ARGS_MAX ? ra->ia_nargs : 0;
	for (i = 0; i < INST_ARGS_MAX; i++)
		v[i] = i < n ? inst_arg_value(&ra->ia_arg[i], regs) : 0;
	if (thr == NULL) {
		dtrace_probe(id, v[0], v[1], v[2], v[3], v[4]);
		return;
	}
	outer = thr->it_args;
	outer_n = thr->it_nargs;
	thr->it_args = v;
	thr->it_nargs = n;
	dtrace_probe(id, v[0], v[1], v[2], v[3], v[4]);
	thr->it_args = outer;
	thr->it_nargs = outer_n;
}

/* Fire the site's enabled probes; true if an is-enabled probe is among
 * them. */
static bool
trap_fire(const inst_site_t *s, isa_regs_t *regs, inst_thread_t *thr)
{
	uint64_t a[5] = {0, 0, 0, 0, 0};
	unsigned i, k, n;
	bool isenabled = false;

	for (i = 0; i < 5 && i < isa_narg_regs; i++)
		a[i] = regs->r[isa_arg_regs[i]];
	for (k = INST_ENTRY; k <= INST_HOOK; k++) {
		for (n = 0; n < INST_SITE_MAXPROBES; n++) {
			const inst_probe_t *p = &s->is_probes[n];
			dtrace_id_t id = p->ip_id;
			inst_hook_fn_t hook;

			if (id == 0 || p->ip_kind != k || !dtrace_load_acquire32(&p->ip_enabled))
				continue;
			if (k == INST_HOOK) {
				hook = __atomic_load_n(&inst_hook, __ATOMIC_ACQUIRE);
				if (hook != NULL)
					hook(s->is_key, s->is_addr, regs);
			} else if (k == INST_USDT) {
				trap_fire_usdt(p, id, regs, thr);
			} else if (k == INST_ISENABLED) {
				isenabled = true;
			} else {
				/* entry, offset and return: at entry and return
				 * the function has no frame (inst_thread_t) */
				uint32_t outer = thr != NULL ? thr->it_noframe : 0;

				if (thr != NULL && k != INST_OFFSET)
					thr->it_noframe = 1;
				if (k == INST_RETURN)
					dtrace_probe(id, s->is_addr - p->ip_func,
						     regs->r[INST_REG_RETVAL], 0, 0, 0);
				else
					dtrace_probe(id, a[0], a[1], a[2], a[3], a[4]);
				if (thr != NULL)
					thr->it_noframe = outer;
			}
		}
	}
	return isenabled;
}

/* Fire (unless told not to) and step the instruction at a site. */
static int
trap_site_step(uint64_t key, uintptr_t addr, isa_regs_t *regs, inst_thread_t *thr,
	       uintptr_t *fault_addr, bool fire)
{
	inst_site_t *s = trap_site(key, addr);
	uint64_t save = 0, jcopy;
	int rv;

	if (s == NULL)
		return INST_TRAP_NONE;
	if (fire && trap_fire(s, regs, thr)) {
		/* An is-enabled site (DTrace's -G: an instruction that clears
		 * the return-value register where the compiled code asked
		 * whether the probe is on): the probe is on, so say so and
		 * skip it. */
		regs->r[INST_REG_RETVAL] = 1;
		regs->r[ISA_REG_PC] = (uint64_t)addr + s->is_insn.pi_len;
		return INST_TRAP_DONE;
	}
	if ((jcopy = dtrace_load_acquire64(&s->is_jcopy)) != 0) {
		/* A jump-capable site: the copy in its trampoline carries out
		 * every instruction the jump replaces (or will), so a thread
		 * that trapped here is never left among them (inst.h). */
		regs->r[ISA_REG_PC] = jcopy;
		return INST_TRAP_DONE;
	}
	rv = isa_probe_step(&s->is_insn, addr, s->is_tramp, regs, &save, fault_addr);
	if (rv == ISA_STEP_FAULT)
		return INST_TRAP_FAULT;
	if (rv == ISA_STEP_TRAMP && s->is_tramp_bp != 0) {
		uint32_t d = thr->it_depth;

		if (d >= INST_THREAD_DEPTH) {
			/* Nested deeper than any chain of signal handlers
			 * should go: forget the outermost step, whose closing
			 * breakpoint will then be passed on as not ours. */
			for (uint32_t i = 1; i < INST_THREAD_DEPTH; i++)
				thr->it_saved[i - 1] = thr->it_saved[i];
			d = INST_THREAD_DEPTH - 1;
		}
		thr->it_saved[d].its_bp = s->is_tramp_bp;
		thr->it_saved[d].its_site = addr;
		thr->it_saved[d].its_save = save;
		thr->it_depth = d + 1;
	}
	return INST_TRAP_DONE;
}

const isa_probe_insn_t *
inst_fire(uint64_t key, uintptr_t addr, isa_regs_t *regs)
{
	inst_site_t *s = trap_site(key, addr);

	if (s == NULL)
		return NULL;
	/* (an is-enabled site is a user-space -G site: none here) */
	(void)trap_fire(s, regs, NULL);
	return &s->is_insn;
}

int
inst_jump_fire(uint64_t key, uintptr_t addr, isa_regs_t *regs, inst_thread_t *thr)
{
	inst_site_t *s = trap_site(key, addr);

	if (s == NULL)
		return INST_TRAP_NONE;
	/* (jumped sites carry entry probes only: inst_site_add_probe) */
	(void)trap_fire(s, regs, thr);
	return INST_TRAP_DONE;
}

int
inst_trap(uint64_t key, uintptr_t addr, isa_regs_t *regs, inst_thread_t *thr,
	  uintptr_t *fault_addr)
{
	return trap_site_step(key, addr, regs, thr, fault_addr, true);
}

int
inst_step(uint64_t key, uintptr_t addr, isa_regs_t *regs, inst_thread_t *thr,
	  uintptr_t *fault_addr)
{
	return trap_site_step(key, addr, regs, thr, fault_addr, false);
}

int
inst_tramp_trap(uint64_t key, uintptr_t addr, isa_regs_t *regs, inst_thread_t *thr)
{
	inst_table_t *t = dtrace_load_acquireptr((void *const volatile *)&inst_table);
	inst_site_t *s;
	uint32_t d;

	if (t == NULL || thr->it_depth == 0)
		return INST_TRAP_NONE;
	/* The innermost outstanding step is the one finishing: handlers nest. */
	d = thr->it_depth - 1;
	if (thr->it_saved[d].its_bp != addr)
		return INST_TRAP_NONE;
	s = dtrace_load_acquireptr((void *const volatile *)&t->it_tramps[inst_hash(t, key, addr)]);
	for (; s != NULL; s = dtrace_load_acquireptr((void *const volatile *)&s->is_tnext))
		if (s->is_key == key && s->is_tramp_bp == addr)
			break;
	if (s == NULL)
		return INST_TRAP_NONE;
	isa_probe_step_done(&s->is_insn, thr->it_saved[d].its_site, regs, thr->it_saved[d].its_save);
	thr->it_depth = d;
	return INST_TRAP_DONE;
}
