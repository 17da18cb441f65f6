/*
 * port/linux/pid.c: the pid provider, one `pid<N>` per traced process.
 *
 * Probes are made on demand from the description a consumer asks for, as
 * DTrace's pid provider makes them: modules are the process's loaded
 * objects by file name (the executable also answers to `a.out`), functions
 * are their defined function symbols of non-zero size (a glob skips _init
 * and _fini, and takes one name per address), and names are `entry`,
 * `return`, an instruction offset in hex, or a glob over those
 * (inst/inst_func.c).  A description asking for nothing (NULL) makes
 * nothing: every instruction of every library would be millions of probes.
 * When the process loads or unloads objects, the enablings consumers have
 * made are offered again, so probes that match appear with the library.
 *
 * Everything here runs in the consumer, outside probe context; the probes
 * fire in the agent (agent.c) through the engine's sites.  pid_lock
 * serialises the engine's tables between the consumer's threads (the
 * core's callbacks and the per-process control threads); it is taken
 * inside the core's locks and never held across a call into the core.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace.h"
#include "host.h"
#include "inst.h"
#include "linux_impl.h"

static pthread_mutex_t pid_lock = PTHREAD_MUTEX_INITIALIZER;

/* Lock order: the core's locks, then pid_lock; never a core call under it. */
static void
pid_lock_take(bool take)
{
	if (take)
		pthread_mutex_lock(&pid_lock);
	else
		pthread_mutex_unlock(&pid_lock);
}

/* The engine's tables are shared with the USDT providers (usdt.c). */
void
linux_inst_lock(bool take)
{
	pid_lock_take(take);
}

/* Probes are user-visible as DTrace's: every field Unstable but the
 * provider's name, ISA-dependent arguments. */
static const dtrace_pattr_t pid_attr = {
	{DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
	{DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	{DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
	{DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
	{DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
};

typedef struct pid_sym {
	char *ps_name;
	uintptr_t ps_addr;
	size_t ps_size;
} pid_sym_t;

typedef struct pid_match {
	linux_proc_t *pm_proc;
	const dtrace_probedesc_t *pm_desc;
	const char *pm_modpat, *pm_funcpat, *pm_namepat;
	bool pm_funcglob;
	const dtrace_port_module_t *pm_mod;
	pid_sym_t *pm_syms;
	size_t pm_nsyms, pm_cap;
	size_t pm_matched; /* functions that made probes */
	bool pm_modfound;  /* a module matched */
} pid_match_t;

/* Remember the first reason a description made nothing, in DTrace's
 * words (dt_pid.c's messages), for the compiler to report. */
static void
pid_note(linux_proc_t *p, inst_func_err_t why, const char *func, const char *name)
{
	unsigned long long off = strtoull(name, NULL, 16);

	if (p->lp_why != 0)
		return;
	switch (why) {
	case INST_FUNC_BADNAME:
		p->lp_why = 3;
		snprintf(p->lp_whymsg, sizeof(p->lp_whymsg), "'%s' is an invalid probe name", name);
		break;
	case INST_FUNC_OUTSIDE:
		p->lp_why = 1;
		snprintf(p->lp_whymsg, sizeof(p->lp_whymsg), "offset 0x%llx outside of function '%s'",
			 off, func);
		break;
	case INST_FUNC_ALIGN:
		p->lp_why = 2;
		snprintf(p->lp_whymsg, sizeof(p->lp_whymsg),
			 "offset 0x%llx is not aligned on an instruction", off);
		break;
	default:
		p->lp_why = 6;
		snprintf(p->lp_whymsg, sizeof(p->lp_whymsg), "failed to create probe in '%s'", func);
		break;
	}
}

int
dtrace_linux_pid_why(pid_t pid, char *buf, size_t len)
{
	linux_proc_t *p = linux_proc_lookup(pid);
	int why;

	if (p == NULL)
		return 0;
	why = p->lp_why;
	if (why != 0)
		snprintf(buf, len, "%s", p->lp_whymsg);
	p->lp_why = 0;
	return why;
}

static bool
is_glob(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

static int
pid_sym_cb(const char *name, uintptr_t addr, size_t size, void *arg)
{
	pid_match_t *pm = arg;
	pid_sym_t *grown;

	if (size == 0)
		return 0;
	if (pm->pm_funcglob) {
		if (strcmp(name, "_init") == 0 || strcmp(name, "_fini") == 0)
			return 0;
		if (!dtrace_match_glob(name, pm->pm_funcpat))
			return 0;
	} else if (strcmp(name, pm->pm_funcpat) != 0) {
		return 0;
	}
	if (pm->pm_nsyms == pm->pm_cap) {
		size_t cap = pm->pm_cap ? pm->pm_cap * 2 : 64;

		if ((grown = realloc(pm->pm_syms, cap * sizeof(*grown))) == NULL)
			return DTRACE_ENOMEM;
		pm->pm_syms = grown;
		pm->pm_cap = cap;
	}
	if ((pm->pm_syms[pm->pm_nsyms].ps_name = strdup(name)) == NULL)
		return DTRACE_ENOMEM;
	pm->pm_syms[pm->pm_nsyms].ps_addr = addr;
	pm->pm_syms[pm->pm_nsyms].ps_size = size;
	pm->pm_nsyms++;
	return 0;
}

static int
sym_order(const void *a, const void *b)
{
	const pid_sym_t *x = a, *y = b;

	if (x->ps_addr != y->ps_addr)
		return x->ps_addr < y->ps_addr ? -1 : 1;
	return strcmp(x->ps_name, y->ps_name);
}

static int
pid_module_cb(const dtrace_port_module_t *mod, void *arg)
{
	pid_match_t *pm = arg;
	linux_proc_t *p = pm->pm_proc;
	inst_func_req_t rq;
	inst_func_err_t why;
	size_t i;

	if (!dtrace_match_glob(mod->dpm_name, pm->pm_modpat) &&
	    !(mod->dpm_path != NULL && strcmp(mod->dpm_path, p->lp_exe) == 0 &&
	      dtrace_match_glob("a.out", pm->pm_modpat)))
		return 0;
	if (strcmp(mod->dpm_name, LINUX_AGENT_NAME) == 0)
		return 0; /* the agent is not for tracing: it runs probe context */
	pm->pm_mod = mod;
	pm->pm_modfound = true;
	pm->pm_nsyms = 0;
	(void)dtrace_port_symbol_iter(mod, pid_sym_cb, pm);
	/* One name per function when globbing: the first by name among
	 * aliases (malloc and __libc_malloc share their text). */
	qsort(pm->pm_syms, pm->pm_nsyms, sizeof(pid_sym_t), sym_order);
	for (i = 0; i < pm->pm_nsyms; i++) {
		pid_sym_t *s = &pm->pm_syms[i];

		if (pm->pm_funcglob && i > 0 && s->ps_addr == pm->pm_syms[i - 1].ps_addr &&
		    s->ps_size == pm->pm_syms[i - 1].ps_size)
			continue;
		memset(&rq, 0, sizeof(rq));
		rq.ifr_prov = p->lp_prov;
		rq.ifr_as = p;
		rq.ifr_key = (uint64_t)p->lp_pid;
		rq.ifr_mod = mod->dpm_name;
		rq.ifr_func = s->ps_name;
		rq.ifr_addr = s->ps_addr;
		rq.ifr_size = s->ps_size;
		rq.ifr_lock = pid_lock_take;
		if (inst_func_probes(&rq, pm->pm_namepat, &why) != 0)
			pid_note(p, why, s->ps_name, pm->pm_namepat);
		else
			pm->pm_matched++;
	}
	for (i = 0; i < pm->pm_nsyms; i++)
		free(pm->pm_syms[i].ps_name);
	return 0;
}

static void
pid_provide(void *parg, const dtrace_probedesc_t *desc)
{
	linux_proc_t *p = parg;
	pid_match_t pm;

	if (desc == NULL || p->lp_state == LINUX_PROC_GONE)
		return;
	memset(&pm, 0, sizeof(pm));
	pm.pm_proc = p;
	pm.pm_desc = desc;
	pm.pm_modpat = desc->dtpd_mod[0] != '\0' ? desc->dtpd_mod : "*";
	pm.pm_funcpat = desc->dtpd_func[0] != '\0' ? desc->dtpd_func : "*";
	pm.pm_namepat = desc->dtpd_name[0] != '\0' ? desc->dtpd_name : "*";
	pm.pm_funcglob = is_glob(pm.pm_funcpat);
	p->lp_why = 0;
	(void)dtrace_port_module_iter(p, pid_module_cb, &pm);
	/* A function named in a named module, and not there: DTrace's
	 * D_PROC_FUNC (a glob on either side fails silently, hoping another
	 * object will have it). */
	if (pm.pm_modfound && pm.pm_matched == 0 && p->lp_why == 0 && !pm.pm_funcglob &&
	    !is_glob(pm.pm_modpat) && pm.pm_nsyms == 0) {
		p->lp_why = 4;
		snprintf(p->lp_whymsg, sizeof(p->lp_whymsg), "failed to lookup '%s' in module '%s'",
			 pm.pm_funcpat, pm.pm_modpat);
	}
	free(pm.pm_syms);
}

static int
pid_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	int err;

	(void)id;
	linux_proc_guard(parg);
	pthread_mutex_lock(&pid_lock);
	err = inst_fprobe_enable(parg_probe);
	pthread_mutex_unlock(&pid_lock);
	return err;
}

static void
pid_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	pthread_mutex_lock(&pid_lock);
	inst_fprobe_disable(parg_probe);
	pthread_mutex_unlock(&pid_lock);
}

static void
pid_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	pthread_mutex_lock(&pid_lock);
	inst_fprobe_destroy(parg_probe);
	pthread_mutex_unlock(&pid_lock);
}

/* No getargval: arguments past the fifth come from the trap's registers
 * through dtrace_port_getarg() in the agent (see dtrace_attach). */
static const dtrace_pops_t pid_pops = {
	pid_provide, pid_enable, pid_disable, NULL, NULL, pid_destroy,
};

/* The engine's tables, made with the first traced process (agents attach
 * them during their handshake). */
int
linux_pid_init(void)
{
	int err = 0;

	pthread_mutex_lock(&pid_lock);
	if (inst_handle() == NULL && (err = inst_init(0)) == 0)
		linux_jump_init();
	pthread_mutex_unlock(&pid_lock);
	return err;
}

int
linux_pid_register(linux_proc_t *p)
{
	char name[DTRACE_PROVNAMELEN];

	snprintf(name, sizeof(name), "pid%d", (int)p->lp_pid);
	return dtrace_register(name, &pid_attr, DTRACE_PRIV_PROC, &pid_pops, p, &p->lp_prov);
}

int
linux_pid_unregister(linux_proc_t *p)
{
	int err;

	if (p->lp_prov == 0)
		return 0;
	dtrace_invalidate(p->lp_prov);
	if ((err = dtrace_unregister(p->lp_prov)) != 0)
		return err;
	p->lp_prov = 0;
	return 0;
}

int
linux_pid_watch_modules(linux_proc_t *p)
{
	inst_site_t *site;
	int err;

	pthread_mutex_lock(&pid_lock);
	if ((err = inst_site_get(p, (uint64_t)p->lp_pid, p->lp_rbrk, &site)) == 0 &&
	    (err = inst_site_add_probe(site, INST_HOOK_ID, INST_HOOK, 0)) == 0 &&
	    (err = inst_probe_enable(site, INST_HOOK_ID)) == 0)
		p->lp_hook = site;
	pthread_mutex_unlock(&pid_lock);
	return err;
}

void
linux_pid_unwatch_modules(linux_proc_t *p)
{
	pthread_mutex_lock(&pid_lock);
	if (p->lp_hook != NULL)
		inst_probe_disable(p->lp_hook, INST_HOOK_ID);
	p->lp_hook = NULL;
	pthread_mutex_unlock(&pid_lock);
}

typedef struct pid_maps {
	uintptr_t *pm_lo, *pm_hi;
	size_t pm_n, pm_cap;
} pid_maps_t;

static int
pid_maps_cb(const dtrace_port_module_t *mod, void *arg)
{
	pid_maps_t *m = arg;

	if (m->pm_n == m->pm_cap) {
		size_t cap = m->pm_cap ? m->pm_cap * 2 : 64;
		uintptr_t *lo = realloc(m->pm_lo, cap * sizeof(*lo)), *hi;

		if (lo == NULL)
			return DTRACE_ENOMEM;
		m->pm_lo = lo;
		if ((hi = realloc(m->pm_hi, cap * sizeof(*hi))) == NULL)
			return DTRACE_ENOMEM;
		m->pm_hi = hi;
		m->pm_cap = cap;
	}
	m->pm_lo[m->pm_n] = mod->dpm_text;
	m->pm_hi[m->pm_n] = mod->dpm_text + mod->dpm_textsize;
	m->pm_n++;
	return 0;
}

static bool
pid_mapped(uintptr_t addr, void *arg)
{
	const pid_maps_t *m = arg;

	for (size_t i = 0; i < m->pm_n; i++)
		if (addr >= m->pm_lo[i] && addr < m->pm_hi[i])
			return true;
	return false;
}

/*
 * The process loaded or unloaded objects (the agent's hook said so):
 * forget the sites whose text is gone, so nothing is ever written where an
 * unloaded library was, then offer the enablings again so probes appear in
 * what was loaded.
 */
void
linux_pid_modules_changed(linux_proc_t *p)
{
	pid_maps_t m;

	memset(&m, 0, sizeof(m));
	if (dtrace_port_module_iter(p, pid_maps_cb, &m) == 0) {
		pthread_mutex_lock(&pid_lock);
		inst_space_prune((uint64_t)p->lp_pid, pid_mapped, &m);
		linux_jump_forget(p); /* its text moved: scan again */
		pthread_mutex_unlock(&pid_lock);
	}
	free(m.pm_lo);
	free(m.pm_hi);
	if (p->lp_prov != 0)
		dtrace_enabling_reprovide(p->lp_prov);
}

void
linux_pid_process_gone(linux_proc_t *p)
{
	pthread_mutex_lock(&pid_lock);
	inst_space_forget((uint64_t)p->lp_pid);
	linux_jump_forget(p);
	pthread_mutex_unlock(&pid_lock);
}

/* The engine goes with the last process (host teardown). */
void
linux_pid_fini(void)
{
	pthread_mutex_lock(&pid_lock);
	linux_jump_fini();
	inst_fini();
	pthread_mutex_unlock(&pid_lock);
}
