/*
 * kernel/instprov.c: what fbt and kinst share in a kernel (instprov.h):
 * the engine's life, the breakpoint hook, which functions are left alone,
 * and the records of the modules probes were made in.
 *
 * Module records.  Each probe belongs to a module; enabling one holds its
 * module loaded (the port's ic_module_hold and a count here), and a module
 * with an enabled probe refuses to unload.  A record is made when a
 * provider first makes probes in the module and dropped when the module
 * unloads; probes find theirs by address when enabled, so neither the
 * kernel's module list nor its lock is touched then (the core holds its
 * own locks, and a kernel's module-load path takes them after its own).
 * A record also counts the probes made in its module (each probe points
 * at the record that counted it, ifp_owner) and the providers' walks of
 * it under way.  A kernel that cannot tell of unloads pins the module
 * (ic_module_pin) when that count leaves 0 and unpins it when it returns
 * to 0, after the module's sites are forgotten and its record dropped: a
 * pinned module cannot unload, and once unpinned it may, and other text
 * may come to live at its addresses.  Pin and unpin are called without
 * our lock (instprov.h says where).  Counts rise only in the providers'
 * walks, which the core serialises (dtps_provide runs under its provider
 * lock); they fall there too and in dtps_destroy, which may run at any
 * time.  A probe the walk destroys itself (its sites failed) was never
 * counted, so no unpin happens inside the port's symbol walk.
 *
 * Locking.  One lock, the port's (ic_lock), serialises the engine's tables
 * and the records.  It is never held across a call into the core: the
 * core may call a provider back (dtps_destroy from dtrace_probe_destroy).
 *
 * Freestanding: core/dtrace.h, inst/inst.h, isa/isa.h.
 */
#include <stdarg.h>

#include "instprov.h"

/* Freestanding: the memory functions every kernel provides. */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

static instprov_conf_t instprov_conf;
static bool instprov_up;

struct instprov_mod {
	char im_name[64];
	void *im_port;     /* the port's handle (dpm_port) */
	uintptr_t im_text; /* [im_text, im_text + im_size) */
	size_t im_size;
	uint32_t im_nenabled;
	uint32_t im_nprobes; /* made in it and not destroyed, both providers */
	uint32_t im_nwalks;  /* providers' walks of it under way */
	bool im_used;
	bool im_gone; /* unloaded: no lookup finds it; dropped with its last probe */
};

#define INSTPROV_MAXMODS 1024
static instprov_mod_t *instprov_mods; /* INSTPROV_MAXMODS of them */

/* ---- Strings (freestanding) ----------------------------------------------- */

static size_t
ip_strlen(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0')
		n++;
	return n;
}

static bool
ip_streq(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b)
		a++, b++;
	return *a == *b;
}

/*
 * One exclusion: "name" exactly, "pre*" a prefix, "*mid*" anywhere.  The
 * prefix test reads only as far as the shorter string reaches.
 */
static bool
ip_match(const char *name, const char *pat)
{
	size_t pl = ip_strlen(pat), nl = ip_strlen(name);

	if (pl > 1 && pat[0] == '*' && pat[pl - 1] == '*') {
		for (size_t i = 0; i + (pl - 2) <= nl; i++)
			if (memcmp(name + i, pat + 1, pl - 2) == 0)
				return true;
		return false;
	}
	if (pl > 0 && pat[pl - 1] == '*')
		return nl >= pl - 1 && memcmp(name, pat, pl - 1) == 0;
	return ip_streq(name, pat);
}

/*
 * The functions every kernel's fbt leaves alone, and ours: DTrace's own
 * (anything named dtrace_*, which DTrace reserves for code that may run in
 * probe context, but dtrace_safe_*), the kernel debugger's (illumos kdi_*
 * and *_kdi_*, the BSDs' db_* and kdb_*), and the four memory functions
 * every kernel provides and this module's probe context calls (a probe on
 * them would trap again inside the trap handler before the core could
 * refuse the recursion).
 */
static const char *const instprov_common_exclude[] = {
    "dtrace_*", "kdi_*", "*_kdi_*", "db_*", "kdb_*", "memcpy", "memmove", "memset", "memcmp", NULL,
};

bool
instprov_excluded(const char *name)
{
	const char *const *p;

	if (name == NULL || name[0] == '\0')
		return true;
	if (ip_match(name, "dtrace_safe_*"))
		return false;
	for (p = instprov_common_exclude; *p != NULL; p++)
		if (ip_match(name, *p))
			return true;
	for (p = instprov_conf.ic_exclude; p != NULL && *p != NULL; p++)
		if (ip_match(name, *p))
			return true;
	return false;
}

bool
instprov_module_ok(const dtrace_port_module_t *mod)
{
	return instprov_conf.ic_module_ok == NULL || instprov_conf.ic_module_ok(mod);
}

/* ---- The lock and the module records --------------------------------------- */

void
instprov_lock(bool take)
{
	if (instprov_conf.ic_lock != NULL)
		instprov_conf.ic_lock(take);
}

static void
ip_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dtrace_port_log(fmt, ap);
	va_end(ap);
}

static instprov_mod_t *
mod_by_port(void *port)
{
	for (size_t i = 0; i < INSTPROV_MAXMODS; i++)
		if (instprov_mods[i].im_used && !instprov_mods[i].im_gone &&
		    instprov_mods[i].im_port == port)
			return &instprov_mods[i];
	return NULL;
}

static instprov_mod_t *
mod_by_addr(uintptr_t addr)
{
	for (size_t i = 0; i < INSTPROV_MAXMODS; i++) {
		instprov_mod_t *m = &instprov_mods[i];

		if (m->im_used && !m->im_gone && addr >= m->im_text &&
		    addr - m->im_text < m->im_size)
			return m;
	}
	return NULL;
}

static instprov_mod_t *
mod_new(const dtrace_port_module_t *mod)
{
	instprov_mod_t *m;
	size_t i, n;

	for (i = 0; i < INSTPROV_MAXMODS && instprov_mods[i].im_used; i++)
		;
	if (i == INSTPROV_MAXMODS)
		return NULL;
	m = &instprov_mods[i];
	memset(m, 0, sizeof(*m));
	n = ip_strlen(mod->dpm_name);
	if (n >= sizeof(m->im_name))
		n = sizeof(m->im_name) - 1;
	memcpy(m->im_name, mod->dpm_name, n);
	m->im_port = mod->dpm_port;
	m->im_text = mod->dpm_text;
	m->im_size = mod->dpm_textsize;
	m->im_used = true;
	return m;
}

typedef struct unload_range {
	uintptr_t lo, hi;
} unload_range_t;

static bool
still_mapped(uintptr_t addr, void *arg)
{
	const unload_range_t *r = arg;

	return addr < r->lo || addr >= r->hi;
}

/* Forget the sites in m's text: never written again, whatever comes to
 * live there. */
static void
mod_prune(const instprov_mod_t *m)
{
	unload_range_t r = {m->im_text, m->im_text + m->im_size};

	inst_space_prune(0, still_mapped, &r);
}

/* A module to unpin once the lock is dropped (its slot may be reused by
 * then, so the name is copied). */
typedef struct mod_unpin {
	dtrace_port_module_t mu_mod;
	char mu_name[64];
} mod_unpin_t;

/*
 * With the lock held, after one of m's counts fell: once no probe and no
 * walk holds the record, a gone one is dropped; with pins, so is any, its
 * sites forgotten first, and true says the caller is to unpin *u.
 */
static bool
mod_idle(instprov_mod_t *m, mod_unpin_t *u)
{
	if (m->im_nprobes != 0 || m->im_nwalks != 0)
		return false;
	if (m->im_gone) {
		m->im_used = false;
		return false;
	}
	if (instprov_conf.ic_module_unpin == NULL)
		return false;
	mod_prune(m);
	m->im_used = false;
	memset(u, 0, sizeof(*u));
	memcpy(u->mu_name, m->im_name, sizeof(u->mu_name));
	u->mu_mod.dpm_name = u->mu_name;
	u->mu_mod.dpm_port = m->im_port;
	u->mu_mod.dpm_text = m->im_text;
	u->mu_mod.dpm_textsize = m->im_size;
	return true;
}

int
instprov_module_begin(const dtrace_port_module_t *mod, instprov_mod_t **mp)
{
	instprov_mod_t *m;
	bool first;
	int err;

	instprov_lock(true);
	if ((m = mod_by_port(mod->dpm_port)) == NULL && (m = mod_new(mod)) == NULL) {
		instprov_lock(false);
		return DTRACE_ENOSPC;
	}
	first = m->im_nprobes == 0 && m->im_nwalks == 0;
	m->im_nwalks++;
	instprov_lock(false);
	if (!first || instprov_conf.ic_module_pin == NULL ||
	    (err = instprov_conf.ic_module_pin(mod)) == 0) {
		*mp = m;
		return 0;
	}
	ip_log("dtrace: fbt, kinst: module %s left alone: it cannot be held (error %d)\n",
	       mod->dpm_name, err);
	instprov_lock(true);
	if (--m->im_nwalks == 0 && m->im_nprobes == 0)
		m->im_used = false;
	instprov_lock(false);
	return err;
}

bool
instprov_module_unpinned(const dtrace_port_module_t *mod)
{
	instprov_mod_t *m;
	bool unpinned;

	if (instprov_conf.ic_module_pin == NULL)
		return false;
	instprov_lock(true);
	m = mod_by_port(mod->dpm_port);
	unpinned = m == NULL || (m->im_nprobes == 0 && m->im_nwalks == 0);
	instprov_lock(false);
	return unpinned;
}

void
instprov_module_end(instprov_mod_t *m)
{
	mod_unpin_t was;
	bool unpin;

	instprov_lock(true);
	m->im_nwalks--;
	unpin = mod_idle(m, &was);
	instprov_lock(false);
	if (unpin)
		instprov_conf.ic_module_unpin(&was.mu_mod);
}

void
instprov_probe_made(inst_fprobe_t *fp, void *mrec)
{
	instprov_mod_t *m = mrec;

	fp->ifp_owner = m;
	m->im_nprobes++;
}

/* ---- Probes over the engine ------------------------------------------------ */

int
instprov_probe_enable(inst_fprobe_t *fp)
{
	instprov_mod_t *m;
	int err;

	instprov_lock(true);
	if (fp->ifp_enabled) {
		instprov_lock(false);
		return 0;
	}
	m = fp->ifp_nsites > 0 ? mod_by_addr(inst_site_addr(fp->ifp_sites[0])) : NULL;
	if ((err = inst_fprobe_enable(fp)) == 0 && m != NULL && m->im_nenabled++ == 0 &&
	    instprov_conf.ic_module_hold != NULL)
		instprov_conf.ic_module_hold(m->im_port, 1);
	instprov_lock(false);
	return err;
}

void
instprov_probe_disable(inst_fprobe_t *fp)
{
	instprov_mod_t *m;
	bool was;

	instprov_lock(true);
	was = fp->ifp_enabled;
	m = fp->ifp_nsites > 0 ? mod_by_addr(inst_site_addr(fp->ifp_sites[0])) : NULL;
	inst_fprobe_disable(fp);
	if (was && m != NULL && m->im_nenabled > 0 && --m->im_nenabled == 0 &&
	    instprov_conf.ic_module_hold != NULL)
		instprov_conf.ic_module_hold(m->im_port, -1);
	instprov_lock(false);
}

void
instprov_probe_destroy(inst_fprobe_t *fp)
{
	instprov_mod_t *m;
	mod_unpin_t was;
	bool unpin = false;

	instprov_lock(true);
	m = fp->ifp_owner;
	inst_fprobe_destroy(fp);
	if (m != NULL && m->im_nprobes > 0) {
		m->im_nprobes--;
		unpin = mod_idle(m, &was);
	}
	instprov_lock(false);
	if (unpin)
		instprov_conf.ic_module_unpin(&was.mu_mod);
}

/* ---- A function's text ------------------------------------------------------ */

static int
count_site(size_t off, int kind, void *arg)
{
	(void)off;
	(void)kind;
	(void)arg;
	return 0;
}

int
instprov_func_text(uintptr_t addr, size_t size, uint8_t **textp)
{
	uint8_t *text;
	int err;

	if (size == 0 || size > INSTPROV_FUNC_MAXSIZE)
		return DTRACE_EINVAL;
	if ((text = dtrace_port_zalloc(size)) == NULL)
		return DTRACE_ENOMEM;
	if ((err = dtrace_port_text_read(NULL, addr, text, size)) != 0)
		goto fail;
	err = DTRACE_EINVAL;
	if (instprov_isa_frame(text, size) < 0)
		goto fail;
	if (isa_func_sites(text, size, addr, count_site, NULL) != 0)
		goto fail;
	*textp = text;
	return 0;
fail:
	dtrace_port_free(text, size);
	return err;
}

/* ---- Which sites may be made ------------------------------------------------ */

static bool
instprov_accept(uintptr_t addr, const isa_probe_insn_t *pi)
{
	/* A trampoline closing with a breakpoint needs per-thread state. */
	if (pi->pi_tramp_bp != 0 && instprov_conf.ic_thread == NULL)
		return false;
	if (instprov_conf.ic_step == INSTPROV_STEP_KERNEL)
		return instprov_conf.ic_accept != NULL && instprov_conf.ic_accept(addr, pi);
	/* An emulated store must not land on the trap frame. */
	return instprov_isa_stack_write(pi) <= instprov_conf.ic_stack_gap;
}

/* ---- The breakpoint hook (probe context) ------------------------------------ */

/* Threads that need no state (no trampoline of theirs ends with a
 * breakpoint) share this one, which stays empty. */
static inst_thread_t instprov_nothread;

int
instprov_trap(isa_regs_t *regs, uintptr_t *fault_addr)
{
	uintptr_t pc, site;
	inst_thread_t *thr;
	int rv;

	if (!instprov_up)
		return INST_TRAP_NONE;
	pc = (uintptr_t)isa_regs_pc(regs);
	site = isa_breakpoint_site(pc);
	thr = instprov_conf.ic_thread != NULL ? instprov_conf.ic_thread() : NULL;
	/* A thread the kernel gave no state (FreeBSD's thread0, say) shares
	 * the empty one: right wherever no trampoline closes with a
	 * breakpoint (x86_64), racy for the rare one that does. */
	if (thr == NULL)
		thr = &instprov_nothread;
	/* Probes see the PC of the instruction, as DTrace's fbt shows it. */
	regs->r[ISA_REG_PC] = site;
	if ((rv = inst_trap(0, site, regs, thr, fault_addr)) == INST_TRAP_NONE)
		rv = inst_tramp_trap(0, site, regs, thr);
	if (rv != INST_TRAP_DONE)
		regs->r[ISA_REG_PC] = pc;
	return rv;
}

bool
instprov_breakpoint(isa_regs_t *regs, const isa_regs_t **slot)
{
	const isa_regs_t *outer = *slot;
	uintptr_t fault;
	int rv;

	*slot = regs;
	rv = instprov_trap(regs, &fault);
	*slot = outer;
	return rv == INST_TRAP_DONE;
}

const isa_probe_insn_t *
instprov_fire(uintptr_t addr, isa_regs_t *regs)
{
	if (!instprov_up)
		return NULL;
	return inst_fire(0, addr, regs);
}

/* ---- Life -------------------------------------------------------------------- */

int
instprov_init(const instprov_conf_t *conf)
{
	int err;

	if (instprov_up)
		return DTRACE_EBUSY;
	instprov_conf = *conf;
	if ((instprov_mods = dtrace_port_zalloc(INSTPROV_MAXMODS * sizeof(*instprov_mods))) == NULL)
		return DTRACE_ENOMEM;
	if ((err = inst_init(0)) != 0)
		goto fail_mods;
	inst_set_accept(instprov_accept);
	instprov_up = true;
	if ((err = instprov_fbt_register()) != 0)
		goto fail_inst;
	if ((err = instprov_kinst_register()) != 0) {
		(void)instprov_fbt_unregister();
		goto fail_inst;
	}
	return 0;

fail_inst:
	instprov_up = false;
	inst_set_accept(NULL);
	inst_fini();
fail_mods:
	dtrace_port_free(instprov_mods, INSTPROV_MAXMODS * sizeof(*instprov_mods));
	instprov_mods = NULL;
	return err;
}

static void
instprov_sync_cpu(void *arg)
{
	(void)arg;
}

int
instprov_fini(void)
{
	int err;

	if (!instprov_up)
		return 0;
	if ((err = instprov_kinst_unregister()) != 0)
		return err;
	if ((err = instprov_fbt_unregister()) != 0) {
		(void)instprov_kinst_register();
		return err;
	}
	/* Every probe is gone and every site disabled; this is belt and
	 * braces for the bytes, then every CPU leaves the trap path (traps
	 * run with interrupts off, and a cross-call waits for each CPU to
	 * take it) before the tables go. */
	instprov_lock(true);
	(void)inst_space_restore(0, NULL, true);
	instprov_up = false;
	instprov_lock(false);
	dtrace_port_xcall(DTRACE_CPUALL, instprov_sync_cpu, NULL);
	inst_set_accept(NULL);
	inst_fini();
	dtrace_port_free(instprov_mods, INSTPROV_MAXMODS * sizeof(*instprov_mods));
	instprov_mods = NULL;
	return 0;
}

/* ---- Module events ------------------------------------------------------------ */

void
instprov_module_loaded(const dtrace_port_module_t *mod)
{
	(void)mod;
	if (!instprov_up)
		return;
	/* Both providers make probes only when asked: ask again for what the
	 * enabled descriptions name, which now includes this module. */
	dtrace_enabling_reprovide(instprov_fbt_id());
	dtrace_enabling_reprovide(instprov_kinst_id());
}

static void
destroy_module_probes(dtrace_provider_id_t prov, const char *mod)
{
	dtrace_id_t id;

	while ((id = dtrace_probe_lookup(prov, mod, NULL, NULL)) != 0)
		if (dtrace_probe_destroy(prov, id) != 0)
			break;
}

int
instprov_module_unloading(const dtrace_port_module_t *mod)
{
	instprov_mod_t *m;

	if (!instprov_up)
		return 0;
	instprov_lock(true);
	if ((m = mod_by_port(mod->dpm_port)) == NULL) {
		instprov_lock(false);
		return 0;
	}
	if (m->im_nenabled > 0) {
		instprov_lock(false);
		return DTRACE_EBUSY;
	}
	mod_prune(m);
	/* Its probes are destroyed next, each letting go of the record. */
	m->im_gone = true;
	if (m->im_nprobes == 0 && m->im_nwalks == 0)
		m->im_used = false;
	instprov_lock(false);
	destroy_module_probes(instprov_fbt_id(), mod->dpm_name);
	destroy_module_probes(instprov_kinst_id(), mod->dpm_name);
	return 0;
}
