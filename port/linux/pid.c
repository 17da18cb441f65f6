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
 * core's callbacks and the per-process control threads).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace.h"
#include "inst.h"
#include "linux_impl.h"

static pthread_mutex_t pid_lock = PTHREAD_MUTEX_INITIALIZER;

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
} pid_match_t;

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
		pthread_mutex_lock(&pid_lock);
		(void)inst_func_probes(&rq, pm->pm_namepat, &why);
		pthread_mutex_unlock(&pid_lock);
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
	(void)dtrace_port_module_iter(p, pid_module_cb, &pm);
	free(pm.pm_syms);
}

static int
pid_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	int err;

	(void)parg;
	(void)id;
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
	if (inst_handle() == NULL)
		err = inst_init(0);
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

void
linux_pid_modules_changed(linux_proc_t *p)
{
	if (p->lp_prov != 0)
		dtrace_enabling_reprovide(p->lp_prov);
}

void
linux_pid_process_gone(linux_proc_t *p)
{
	pthread_mutex_lock(&pid_lock);
	inst_space_forget((uint64_t)p->lp_pid);
	pthread_mutex_unlock(&pid_lock);
}

/* The engine goes with the last process (host teardown). */
void
linux_pid_fini(void)
{
	pthread_mutex_lock(&pid_lock);
	inst_fini();
	pthread_mutex_unlock(&pid_lock);
}
