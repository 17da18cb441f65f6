/*
 * port/linux/usdt.c: statically defined probes (USDT) of traced processes.
 *
 * Programs and libraries describe their own probes.  Linux distributions
 * build them with SystemTap's <sys/sdt.h>: each probe site is a `nop` with
 * an ELF note (.note.stapsdt) giving its provider, name, address, an
 * optional semaphore (a counter the program tests before doing the work
 * of an expensive probe) and where each argument is at the nop, in the
 * assembler's words (`-4@%eax`, `8@-16(%rbp)`).  Objects made with
 * DTrace's -G carry a DOF image instead (usdt_dof.c).  Each provider name of a
 * traced process becomes a DTrace provider named with the pid, as DTrace
 * names USDT providers (`python1234`), whose probes are named
 * provider:object:function:name with the name's `__` made a `-`
 * (`function__entry` is `function-entry`).
 *
 * When: after the agent's handshake (every object the program was linked
 * with is mapped by then) and whenever the agent reports objects loaded
 * or unloaded (proc.c's control thread, after the pid provider has
 * forgotten the sites of unmapped text).  New objects make providers and
 * probes, and the enablings already made are matched against them, so a
 * library's probes work from its first call; an unloaded object's sites
 * are dropped, and its probes destroyed unless enabled (an enabled one
 * stays, firing nowhere, until disabled; it gets sites again if the
 * object comes back).
 *
 * A probe site is an engine site (inst/) carrying the probe as kind
 * INST_USDT with the argument recipe the descriptors gave, or
 * INST_ISENABLED for DTrace's is-enabled sites; the breakpoint goes in
 * while the probe is enabled.  Semaphores are incremented in the process
 * (through /proc/<pid>/mem) while any enabled probe counts on them.  Each
 * increment is recorded in the arena (the process's block, agent_proto.h)
 * after it is made, and the record cleared before it is taken back, so
 * that an agent whose consumer died takes back at most what is there
 * (agent_usdt.c).
 *
 * Locking: usdt_lock guards the lists below; the engine's tables are
 * changed under linux_inst_lock (pid.c's) inside it.  Neither is held
 * across a call into the core, which calls the provider back.  Not probe
 * context.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_proto.h"
#include "dtrace.h"
#include "usdt.h"

/* ---- Argument descriptors ---------------------------------------------- */

int
linux_usdt_arg_parse(const char *desc, size_t len, inst_arg_t *a, linux_usdt_sym_fn_t sym,
                     void *arg)
{
	const char *at = memchr(desc, '@', len);
	const char *s = desc;
	bool sign = false;
	unsigned n = 0;

	memset(a, 0, sizeof(*a));
	a->ia_base = a->ia_index = INST_ARG_NOREG;
	a->ia_scale = 1;
	a->ia_size = 8;
	a->ia_signed = 1;
	/* "N@" with N a size; an operand may hold '@' only in a symbol,
	 * which a size never is. */
	if (at != NULL) {
		if (s < at && *s == '-') {
			sign = true;
			s++;
		}
		for (; s < at && *s >= '0' && *s <= '9'; s++)
			n = n * 10 + (unsigned)(*s - '0');
		if (s == at && (n == 1 || n == 2 || n == 4 || n == 8)) {
			a->ia_size = (uint8_t)n;
			a->ia_signed = sign;
			len -= (size_t)(at + 1 - desc);
			desc = at + 1;
		}
	}
	return linux_usdt_operand(desc, len, a, sym, arg);
}

size_t
linux_usdt_arg_len(const char *s)
{
	size_t n;
	int depth = 0;

	for (n = 0; s[n] != '\0'; n++) {
		if (s[n] == '[')
			depth++;
		else if (s[n] == ']' && depth > 0)
			depth--;
		else if ((s[n] == ' ' || s[n] == '\t') && depth == 0)
			break;
	}
	return n;
}

const char *
linux_usdt_arg_type(const inst_arg_t *a)
{
	static const char *const names[2][4] = {
	    {"uint8_t", "uint16_t", "uint32_t", "uint64_t"},
	    {"int8_t", "int16_t", "int32_t", "int64_t"},
	};
	unsigned i = a->ia_size == 1 ? 0 : a->ia_size == 2 ? 1 : a->ia_size == 4 ? 2 : 3;

	return names[a->ia_signed != 0][i];
}

/* ---- What we keep ------------------------------------------------------- */

typedef struct usdt_obj {
	char *uo_path;
	uintptr_t uo_bias;
	uintptr_t uo_text, uo_textend; /* its executable mapping */
	bool uo_mapped; /* seen by the scan under way */
	struct usdt_obj *uo_next;
} usdt_obj_t;

typedef struct usdt_site {
	inst_site_t *us_site;
	inst_kind_t us_kind; /* INST_USDT or INST_ISENABLED */
	uintptr_t us_sem;    /* its semaphore, 0 if none */
	usdt_obj_t *us_obj;
} usdt_site_t;

struct usdt_prov;

typedef struct usdt_probe {
	struct usdt_prov *upr_prov;
	dtrace_id_t upr_id;
	bool upr_enabled;
	bool upr_doomed; /* being destroyed */
	usdt_site_t *upr_sites;
	size_t upr_nsites, upr_cap;
	int upr_nargs; /* translated arguments: args[] */
	char *upr_native[INST_ARGS_MAX];
	char *upr_xlate[INST_ARGS_MAX];
	uint8_t upr_map[INST_ARGS_MAX];
	struct usdt_probe *upr_next;
} usdt_probe_t;

typedef struct usdt_prov {
	char upv_name[DTRACE_PROVNAMELEN];
	dtrace_provider_id_t upv_id;
	struct usdt_proc *upv_proc;
	dtrace_pattr_t upv_attr;
	usdt_probe_t *upv_probes;
	struct usdt_prov *upv_next;
} usdt_prov_t;

typedef struct usdt_proc {
	linux_proc_t *up_proc;
	bool up_gone;
	usdt_obj_t *up_objs;
	usdt_prov_t *up_provs;
	struct usdt_proc *up_next;
} usdt_proc_t;

static pthread_mutex_t usdt_lock = PTHREAD_MUTEX_INITIALIZER;
static usdt_proc_t *usdt_procs;

/* SystemTap's notes say nothing of stability: as DTrace's pid provider,
 * but the probe names are the program's own interface. */
static const dtrace_pattr_t usdt_stap_attr = {
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
};

static usdt_proc_t *
usdt_proc_find(linux_proc_t *p, bool make)
{
	usdt_proc_t *up;

	for (up = usdt_procs; up != NULL; up = up->up_next)
		if (up->up_proc == p)
			return up;
	if (!make || (up = calloc(1, sizeof(*up))) == NULL)
		return NULL;
	up->up_proc = p;
	up->up_next = usdt_procs;
	usdt_procs = up;
	return up;
}

/* ---- Semaphores --------------------------------------------------------- */

/* The record of addr in the process's block; made when `make`. */
static linux_agent_sem_t *
sem_record(linux_proc_t *p, uintptr_t addr, bool make)
{
	linux_agent_block_t *b = p->lp_block;
	linux_agent_sems_t *c, **tail = (linux_agent_sems_t **)&b->lab_sems;
	linux_agent_sem_t *free_one = NULL;

	for (c = b->lab_sems; c != NULL;
	     tail = (linux_agent_sems_t **)&c->lass_next, c = c->lass_next)
		for (unsigned i = 0; i < LINUX_AGENT_SEMCHUNK; i++) {
			if (c->lass_sem[i].las_addr == addr)
				return &c->lass_sem[i];
			if (c->lass_sem[i].las_addr == 0 && free_one == NULL)
				free_one = &c->lass_sem[i];
		}
	if (!make)
		return NULL;
	if (free_one == NULL) {
		if ((c = dtrace_port_zalloc(sizeof(*c))) == NULL)
			return NULL;
		free_one = &c->lass_sem[0];
		__atomic_store_n(tail, c, __ATOMIC_RELEASE);
	}
	free_one->las_refs = 0;
	free_one->las_applied = 0;
	__atomic_store_n(&free_one->las_addr, (uint64_t)addr, __ATOMIC_RELEASE);
	return free_one;
}

/* Add delta to the process's counter at addr; never below 0. */
static int
sem_poke(linux_proc_t *p, uintptr_t addr, int delta)
{
	uint16_t v;
	int err;

	if ((err = linux_proc_mem_read(p, addr, &v, sizeof(v))) != 0)
		return err;
	if (delta < 0 && v == 0)
		return 0;
	v = (uint16_t)(v + delta);
	return linux_proc_mem_write(p, addr, &v, sizeof(v));
}

/* An enabled site counts on the semaphore at addr. */
static void
sem_ref(usdt_proc_t *up, uintptr_t addr)
{
	linux_agent_sem_t *s;

	if (addr == 0 || up->up_gone || (s = sem_record(up->up_proc, addr, true)) == NULL)
		return;
	if (s->las_refs++ == 0 && !s->las_applied && sem_poke(up->up_proc, addr, 1) == 0)
		__atomic_store_n(&s->las_applied, 1, __ATOMIC_RELEASE);
}

/* It no longer does; `write` false when the object (or the process) is
 * gone and its memory with it. */
static void
sem_unref(usdt_proc_t *up, uintptr_t addr, bool write)
{
	linux_agent_sem_t *s;

	if (addr == 0 || (s = sem_record(up->up_proc, addr, false)) == NULL || s->las_refs == 0)
		return;
	if (write && --s->las_refs > 0)
		return;
	/* The record goes first: if we die between the two, the agent finds
	 * nothing to take back, and the program keeps one increment too many
	 * rather than losing one it did not owe. */
	if (__atomic_exchange_n(&s->las_applied, 0, __ATOMIC_ACQ_REL) && write && !up->up_gone)
		(void)sem_poke(up->up_proc, addr, -1);
	s->las_refs = 0;
	__atomic_store_n(&s->las_addr, 0, __ATOMIC_RELEASE);
}

/* ---- The provider ------------------------------------------------------- */

static void
usdt_provide(void *parg, const dtrace_probedesc_t *desc)
{
	/* Probes are made when their objects are read (linux_usdt_scan). */
	(void)parg;
	(void)desc;
}

static int
site_arm(usdt_proc_t *up, usdt_probe_t *pr, usdt_site_t *us)
{
	int err;

	linux_inst_lock(true);
	err = inst_probe_enable(us->us_site, pr->upr_id);
	linux_inst_lock(false);
	if (err == DTRACE_ENOENT)
		return 0; /* its text was unloaded: the scan under way drops it */
	if (err == 0)
		sem_ref(up, us->us_sem);
	return err;
}

static void
site_disarm(usdt_proc_t *up, usdt_probe_t *pr, usdt_site_t *us, bool write)
{
	linux_inst_lock(true);
	inst_probe_disable(us->us_site, pr->upr_id);
	linux_inst_lock(false);
	sem_unref(up, us->us_sem, write);
}

static int
usdt_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	usdt_prov_t *pv = parg;
	usdt_probe_t *pr = parg_probe;
	size_t armed = 0;
	int err = 0;

	(void)id;
	linux_proc_guard(pv->upv_proc->up_proc);
	pthread_mutex_lock(&usdt_lock);
	if (!pr->upr_enabled) {
		for (; armed < pr->upr_nsites; armed++)
			if ((err = site_arm(pv->upv_proc, pr, &pr->upr_sites[armed])) != 0)
				break;
		if (err != 0)
			while (armed-- > 0)
				site_disarm(pv->upv_proc, pr, &pr->upr_sites[armed], true);
		else
			pr->upr_enabled = true;
	}
	pthread_mutex_unlock(&usdt_lock);
	return err;
}

static void
usdt_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	usdt_prov_t *pv = parg;
	usdt_probe_t *pr = parg_probe;

	(void)id;
	pthread_mutex_lock(&usdt_lock);
	if (pr->upr_enabled)
		for (size_t i = 0; i < pr->upr_nsites; i++)
			site_disarm(pv->upv_proc, pr, &pr->upr_sites[i], true);
	pr->upr_enabled = false;
	pthread_mutex_unlock(&usdt_lock);
}

static void
usdt_getargdesc(void *parg, dtrace_id_t id, void *parg_probe, dtrace_argdesc_t *desc)
{
	usdt_probe_t *pr = parg_probe;
	int i = desc->dtargd_ndx;

	(void)parg;
	(void)id;
	if (i < 0 || i >= pr->upr_nargs) {
		desc->dtargd_ndx = DTRACE_ARGNONE;
		return;
	}
	desc->dtargd_mapping = pr->upr_map[i];
	if (pr->upr_native[pr->upr_map[i]] != NULL)
		snprintf(desc->dtargd_native, sizeof(desc->dtargd_native), "%s",
		         pr->upr_native[pr->upr_map[i]]);
	if (pr->upr_xlate[i] != NULL)
		snprintf(desc->dtargd_xlate, sizeof(desc->dtargd_xlate), "%s", pr->upr_xlate[i]);
}

static void
probe_free(usdt_probe_t *pr)
{
	for (int i = 0; i < INST_ARGS_MAX; i++) {
		free(pr->upr_native[i]);
		free(pr->upr_xlate[i]);
	}
	free(pr->upr_sites);
	free(pr);
}

static void
usdt_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	usdt_prov_t *pv = parg;
	usdt_probe_t *pr = parg_probe, **pp;

	(void)id;
	pthread_mutex_lock(&usdt_lock);
	linux_inst_lock(true);
	for (size_t i = 0; i < pr->upr_nsites; i++)
		inst_site_remove_probe(pr->upr_sites[i].us_site, pr->upr_id);
	linux_inst_lock(false);
	for (pp = &pv->upv_probes; *pp != NULL; pp = &(*pp)->upr_next)
		if (*pp == pr) {
			*pp = pr->upr_next;
			break;
		}
	pthread_mutex_unlock(&usdt_lock);
	probe_free(pr);
}

static const dtrace_pops_t usdt_pops = {
    usdt_provide, usdt_enable, usdt_disable, usdt_getargdesc, NULL, usdt_destroy,
};

/* ---- Making probes ------------------------------------------------------ */

/* The provider `name` of the process, registered on first use.  Called by
 * the scanning thread only, so two cannot race to make one. */
static usdt_prov_t *
prov_get(usdt_proc_t *up, const char *name, const dtrace_pattr_t *attr)
{
	char full[DTRACE_PROVNAMELEN];
	usdt_prov_t *pv;
	int n;

	n = snprintf(full, sizeof(full), "%s%d", name, (int)up->up_proc->lp_pid);
	if (n <= 0 || (size_t)n >= sizeof(full))
		return NULL;
	pthread_mutex_lock(&usdt_lock);
	for (pv = up->up_provs; pv != NULL; pv = pv->upv_next)
		if (strcmp(pv->upv_name, full) == 0)
			break;
	pthread_mutex_unlock(&usdt_lock);
	if (pv != NULL)
		return pv;
	if ((pv = calloc(1, sizeof(*pv))) == NULL)
		return NULL;
	memcpy(pv->upv_name, full, (size_t)n + 1);
	pv->upv_proc = up;
	pv->upv_attr = attr != NULL ? *attr : usdt_stap_attr;
	if (dtrace_register(full, &pv->upv_attr, DTRACE_PRIV_PROC, &usdt_pops, pv, &pv->upv_id) !=
	    0) {
		free(pv);
		return NULL;
	}
	pthread_mutex_lock(&usdt_lock);
	pv->upv_next = up->up_provs;
	up->up_provs = pv;
	pthread_mutex_unlock(&usdt_lock);
	return pv;
}

static void
probe_types(usdt_probe_t *pr, const linux_usdt_desc_t *d)
{
	pr->upr_nargs = d->ud_nxargs < INST_ARGS_MAX ? d->ud_nxargs : INST_ARGS_MAX;
	for (int i = 0; i < INST_ARGS_MAX; i++) {
		pr->upr_map[i] = d->ud_map[i] < INST_ARGS_MAX ? d->ud_map[i] : 0;
		if (d->ud_native[i] != NULL && pr->upr_native[i] == NULL)
			pr->upr_native[i] = strdup(d->ud_native[i]);
		if (i < d->ud_nxargs && d->ud_xlate[i] != NULL && pr->upr_xlate[i] == NULL)
			pr->upr_xlate[i] = strdup(d->ud_xlate[i]);
	}
}

/* `__` in a name the object gives becomes `-`, as DTrace names probes. */
static void
probe_name(char *out, size_t len, const char *in)
{
	size_t n = 0;

	for (; *in != '\0' && n + 1 < len; in++) {
		if (in[0] == '_' && in[1] == '_') {
			out[n++] = '-';
			in++;
		} else {
			out[n++] = *in;
		}
	}
	out[n] = '\0';
}

typedef struct usdt_scan {
	usdt_proc_t *sc_up;
	usdt_obj_t *sc_obj;
	const char *sc_mod;
	int sc_made; /* probes created */
} usdt_scan_t;

/* One site an object describes (a note, or a DOF probe's offset). */
static void
usdt_add_site(const linux_usdt_desc_t *d, void *arg)
{
	usdt_scan_t *sc = arg;
	usdt_proc_t *up = sc->sc_up;
	linux_proc_t *p = up->up_proc;
	char name[DTRACE_NAMELEN], func[DTRACE_FUNCNAMELEN];
	usdt_prov_t *pv;
	usdt_probe_t *pr;
	usdt_site_t *us;
	inst_site_t *site;
	dtrace_id_t id;
	int err;

	if ((pv = prov_get(up, d->ud_prov, d->ud_attr)) == NULL)
		return;
	probe_name(name, sizeof(name), d->ud_name);
	snprintf(func, sizeof(func), "%s", d->ud_func != NULL ? d->ud_func : "");
	if ((id = dtrace_probe_lookup(pv->upv_id, sc->sc_mod, func, name)) != 0) {
		if ((pr = dtrace_probe_arg(pv->upv_id, id)) == NULL)
			return;
	} else {
		if ((pr = calloc(1, sizeof(*pr))) == NULL)
			return;
		pr->upr_prov = pv;
		probe_types(pr, d);
		if ((id = dtrace_probe_create(pv->upv_id, sc->sc_mod, func, name, 0, pr)) == 0) {
			probe_free(pr);
			return;
		}
		pthread_mutex_lock(&usdt_lock);
		pr->upr_id = id;
		pr->upr_next = pv->upv_probes;
		pv->upv_probes = pr;
		pthread_mutex_unlock(&usdt_lock);
		sc->sc_made++;
	}
	if (pr->upr_nargs == 0 && d->ud_nxargs > 0 && !d->ud_isenabled)
		probe_types(pr, d); /* an is-enabled site came first */

	pthread_mutex_lock(&usdt_lock);
	for (size_t i = 0; i < pr->upr_nsites; i++)
		if (inst_site_addr(pr->upr_sites[i].us_site) == d->ud_addr &&
		    pr->upr_sites[i].us_obj == sc->sc_obj) {
			pthread_mutex_unlock(&usdt_lock);
			return;
		}
	if (pr->upr_nsites == pr->upr_cap) {
		size_t cap = pr->upr_cap ? pr->upr_cap * 2 : 2;
		usdt_site_t *grown = realloc(pr->upr_sites, cap * sizeof(*grown));

		if (grown == NULL) {
			pthread_mutex_unlock(&usdt_lock);
			return;
		}
		pr->upr_sites = grown;
		pr->upr_cap = cap;
	}
	linux_inst_lock(true);
	err = inst_site_get(p, (uint64_t)p->lp_pid, d->ud_addr, &site);
	if (err == 0)
		err = inst_site_add_usdt(site, id, d->ud_isenabled ? INST_ISENABLED : INST_USDT,
		                         d->ud_isenabled ? NULL : &d->ud_args);
	linux_inst_lock(false);
	if (err == 0) {
		us = &pr->upr_sites[pr->upr_nsites++];
		us->us_site = site;
		us->us_kind = d->ud_isenabled ? INST_ISENABLED : INST_USDT;
		us->us_sem = d->ud_sem;
		us->us_obj = sc->sc_obj;
		if (pr->upr_enabled)
			(void)site_arm(up, pr, us);
	}
	pthread_mutex_unlock(&usdt_lock);
}

/* ---- Reading an object -------------------------------------------------- */

typedef struct elf_sym {
	const char *es_name;
	uint64_t es_value, es_size;
	bool es_func;
} elf_sym_t;

typedef struct usdt_elf {
	Elf *ue_elf;
	int ue_fd;
	Elf *ue_dbg; /* its debug file, for names a stripped object lacks */
	int ue_dbgfd;
	uintptr_t ue_bias;
	elf_sym_t *ue_syms; /* sorted by value */
	size_t ue_nsyms, ue_cap;
} usdt_elf_t;

static void
elf_add_syms(usdt_elf_t *ue, Elf *elf, Elf_Scn *scn)
{
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *data;
	size_t n;

	if (scn == NULL || gelf_getshdr(scn, &sh) == NULL || sh.sh_entsize == 0 ||
	    (data = elf_getdata(scn, NULL)) == NULL)
		return;
	n = sh.sh_size / sh.sh_entsize;
	for (size_t i = 0; i < n; i++) {
		int type;
		const char *name;

		if (gelf_getsym(data, (int)i, &sym) == NULL || sym.st_shndx == SHN_UNDEF ||
		    sym.st_value == 0)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT &&
		    type != STT_NOTYPE)
			continue;
		if ((name = elf_strptr(elf, sh.sh_link, sym.st_name)) == NULL || name[0] == '\0')
			continue;
		if (ue->ue_nsyms == ue->ue_cap) {
			size_t cap = ue->ue_cap ? ue->ue_cap * 2 : 1024;
			elf_sym_t *grown = realloc(ue->ue_syms, cap * sizeof(*grown));

			if (grown == NULL)
				return;
			ue->ue_syms = grown;
			ue->ue_cap = cap;
		}
		ue->ue_syms[ue->ue_nsyms].es_name = name;
		ue->ue_syms[ue->ue_nsyms].es_value = sym.st_value;
		ue->ue_syms[ue->ue_nsyms].es_size = sym.st_size;
		ue->ue_syms[ue->ue_nsyms].es_func = type == STT_FUNC || type == STT_GNU_IFUNC;
		ue->ue_nsyms++;
	}
}

static Elf_Scn *
elf_section(Elf *elf, const char *want, Elf64_Word type, GElf_Shdr *shp)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *name;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, shp) == NULL)
			continue;
		if (type != SHT_NULL && shp->sh_type != type)
			continue;
		if (want != NULL && ((name = elf_strptr(elf, shstrndx, shp->sh_name)) == NULL ||
		                     strcmp(name, want) != 0))
			continue;
		return scn;
	}
	return NULL;
}

/* The object's debug file by its build ID (Debian's *-dbg packages). */
static void
elf_open_debug(usdt_elf_t *ue)
{
	GElf_Shdr sh;
	GElf_Nhdr nh;
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	size_t off, noff, doff;
	char path[4096];
	int n;

	while ((scn = elf_nextscn(ue->ue_elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE ||
		    (data = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (off = 0; (off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0;) {
			const uint8_t *id = (const uint8_t *)data->d_buf + doff;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_descsz < 2 || nh.n_namesz != 4 ||
			    memcmp((const char *)data->d_buf + noff, "GNU", 4) != 0)
				continue;
			n = snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/", id[0]);
			for (size_t i = 1; i < nh.n_descsz && n > 0 && (size_t)n + 3 < sizeof(path);
			     i++)
				n += snprintf(path + n, sizeof(path) - (size_t)n, "%02x", id[i]);
			snprintf(path + n, sizeof(path) - (size_t)n, ".debug");
			if ((ue->ue_dbgfd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
				return;
			ue->ue_dbg = elf_begin(ue->ue_dbgfd, ELF_C_READ_MMAP, NULL);
			return;
		}
	}
}

static int
sym_order(const void *a, const void *b)
{
	const elf_sym_t *x = a, *y = b;

	if (x->es_value != y->es_value)
		return x->es_value < y->es_value ? -1 : 1;
	if (x->es_func != y->es_func)
		return x->es_func ? -1 : 1;
	return strcmp(x->es_name, y->es_name);
}

static int
elf_open(usdt_elf_t *ue, const char *path, uintptr_t bias)
{
	GElf_Shdr sh;
	Elf_Scn *symtab;

	memset(ue, 0, sizeof(*ue));
	ue->ue_dbgfd = -1;
	ue->ue_bias = bias;
	if ((ue->ue_fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno;
	if ((ue->ue_elf = elf_begin(ue->ue_fd, ELF_C_READ_MMAP, NULL)) == NULL ||
	    elf_kind(ue->ue_elf) != ELF_K_ELF) {
		if (ue->ue_elf != NULL)
			elf_end(ue->ue_elf);
		close(ue->ue_fd);
		return EINVAL;
	}
	if ((symtab = elf_section(ue->ue_elf, NULL, SHT_SYMTAB, &sh)) == NULL) {
		elf_open_debug(ue);
		if (ue->ue_dbg != NULL)
			elf_add_syms(ue, ue->ue_dbg,
			             elf_section(ue->ue_dbg, NULL, SHT_SYMTAB, &sh));
	}
	elf_add_syms(ue, ue->ue_elf, symtab);
	elf_add_syms(ue, ue->ue_elf, elf_section(ue->ue_elf, NULL, SHT_DYNSYM, &sh));
	qsort(ue->ue_syms, ue->ue_nsyms, sizeof(elf_sym_t), sym_order);
	return 0;
}

static void
elf_close(usdt_elf_t *ue)
{
	free(ue->ue_syms);
	if (ue->ue_dbg != NULL)
		elf_end(ue->ue_dbg);
	if (ue->ue_dbgfd >= 0)
		close(ue->ue_dbgfd);
	elf_end(ue->ue_elf);
	close(ue->ue_fd);
}

/* The function holding link-time address addr, or NULL. */
static const char *
elf_func(const usdt_elf_t *ue, uint64_t addr)
{
	size_t lo = 0, hi = ue->ue_nsyms;

	/* the last symbol at or below addr, then back over its neighbours */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ue->ue_syms[mid].es_value <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0;) {
		const elf_sym_t *s = &ue->ue_syms[i];

		if (s->es_func && addr < s->es_value + s->es_size)
			return s->es_name;
		if (addr - s->es_value > ((uint64_t)1 << 24))
			break;
	}
	return NULL;
}

/* A symbol's address in the process, for `sym(%rip)` operands. */
static int
elf_sym_addr(const char *name, size_t len, uint64_t *addr, void *arg)
{
	const usdt_elf_t *ue = arg;

	for (size_t i = 0; i < ue->ue_nsyms; i++) {
		const elf_sym_t *s = &ue->ue_syms[i];

		if (strncmp(s->es_name, name, len) == 0 && s->es_name[len] == '\0') {
			*addr = s->es_value + ue->ue_bias;
			return 0;
		}
	}
	return -1;
}

/*
 * SystemTap's notes (NT_STAPSDT 3, owner "stapsdt"): three addresses (the
 * site, the .stapsdt.base section as linked, the semaphore) then the
 * provider, the name and the argument descriptors as strings.  An object
 * moved after linking (prelink) says so by .stapsdt.base's address
 * differing from the note's: sites and semaphores move with it.
 */
#define NT_STAPSDT 3

static void
stap_notes(usdt_elf_t *ue, usdt_scan_t *sc)
{
	GElf_Shdr sh, bsh;
	GElf_Nhdr nh;
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	size_t off, noff, doff;
	bool hasbase = elf_section(ue->ue_elf, ".stapsdt.base", SHT_NULL, &bsh) != NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(ue->ue_elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(ue->ue_elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE ||
		    (data = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (off = 0; (off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0;) {
			const char *desc = (const char *)data->d_buf + doff, *prov, *name, *args;
			const char *end = desc + nh.n_descsz, *s, *e;
			linux_usdt_desc_t d;
			uint64_t pc, base, sem;
			int64_t adj = 0;

			if (nh.n_type != NT_STAPSDT || nh.n_namesz != 8 ||
			    memcmp((const char *)data->d_buf + noff, "stapsdt", 8) != 0 ||
			    nh.n_descsz < 3 * 8 + 3)
				continue;
			memcpy(&pc, desc, 8);
			memcpy(&base, desc + 8, 8);
			memcpy(&sem, desc + 16, 8);
			prov = desc + 24;
			if ((name = memchr(prov, '\0', (size_t)(end - prov))) == NULL ||
			    ++name >= end ||
			    (args = memchr(name, '\0', (size_t)(end - name))) == NULL ||
			    ++args > end || memchr(args, '\0', (size_t)(end - args)) == NULL)
				continue;
			if (hasbase && base != 0)
				adj = (int64_t)(bsh.sh_addr - base);
			pc += (uint64_t)adj;
			memset(&d, 0, sizeof(d));
			d.ud_prov = prov;
			d.ud_name = name;
			d.ud_func = elf_func(ue, pc);
			d.ud_addr = (uintptr_t)(pc + ue->ue_bias);
			d.ud_sem = sem != 0 ? (uintptr_t)(sem + (uint64_t)adj + ue->ue_bias) : 0;
			/* descriptors are separated by spaces (outside brackets) */
			for (s = args; *s != '\0' && d.ud_args.ia_nargs < INST_ARGS_MAX; s = e) {
				inst_arg_t *a = &d.ud_args.ia_arg[d.ud_args.ia_nargs];

				while (*s == ' ' || *s == '\t')
					s++;
				if (*s == '\0')
					break;
				e = s + linux_usdt_arg_len(s);
				(void)linux_usdt_arg_parse(s, (size_t)(e - s), a, elf_sym_addr, ue);
				d.ud_native[d.ud_args.ia_nargs] = linux_usdt_arg_type(a);
				d.ud_map[d.ud_args.ia_nargs] = (uint8_t)d.ud_args.ia_nargs;
				d.ud_args.ia_nargs++;
			}
			d.ud_nxargs = (int)d.ud_args.ia_nargs;
			usdt_add_site(&d, sc);
		}
	}
}

/* DTrace's -G: the object's `.SUNW_dof`, as the process has it relocated
 * (usdt_dof.c). */
static void
dof_images(usdt_elf_t *ue, usdt_scan_t *sc, const usdt_obj_t *o)
{
	GElf_Shdr sh;

	if (elf_section(ue->ue_elf, ".SUNW_dof", SHT_PROGBITS, &sh) == NULL ||
	    !(sh.sh_flags & SHF_ALLOC) || sh.sh_size == 0)
		return;
	(void)linux_usdt_dof_read(sc->sc_up->up_proc, (uintptr_t)(sh.sh_addr + ue->ue_bias),
				  (size_t)sh.sh_size, o->uo_text, o->uo_textend, usdt_add_site, sc);
}

/* ---- Objects coming and going ------------------------------------------- */

typedef struct usdt_modlist {
	usdt_proc_t *ml_up;
	usdt_obj_t *ml_new; /* objects seen for the first time */
} usdt_modlist_t;

static int
scan_module_cb(const dtrace_port_module_t *mod, void *arg)
{
	usdt_modlist_t *ml = arg;
	usdt_obj_t *o;

	if (mod->dpm_path == NULL || strcmp(mod->dpm_name, LINUX_AGENT_NAME) == 0)
		return 0;
	for (o = ml->ml_up->up_objs; o != NULL; o = o->uo_next)
		if (o->uo_bias == mod->dpm_base && strcmp(o->uo_path, mod->dpm_path) == 0) {
			o->uo_mapped = true;
			return 0;
		}
	for (o = ml->ml_new; o != NULL; o = o->uo_next)
		if (o->uo_bias == mod->dpm_base && strcmp(o->uo_path, mod->dpm_path) == 0)
			return 0;
	if ((o = calloc(1, sizeof(*o))) == NULL || (o->uo_path = strdup(mod->dpm_path)) == NULL) {
		free(o);
		return 0;
	}
	o->uo_bias = mod->dpm_base;
	o->uo_text = mod->dpm_text;
	o->uo_textend = mod->dpm_text + mod->dpm_textsize;
	o->uo_mapped = true;
	o->uo_next = ml->ml_new;
	ml->ml_new = o;
	return 0;
}

/* An object went: its sites go from every probe. */
static void
obj_retire(usdt_proc_t *up, usdt_obj_t *o)
{
	for (usdt_prov_t *pv = up->up_provs; pv != NULL; pv = pv->upv_next) {
		for (usdt_probe_t *pr = pv->upv_probes; pr != NULL; pr = pr->upr_next) {
			size_t k = 0;

			for (size_t i = 0; i < pr->upr_nsites; i++) {
				usdt_site_t *us = &pr->upr_sites[i];

				if (us->us_obj != o) {
					pr->upr_sites[k++] = *us;
					continue;
				}
				if (pr->upr_enabled)
					sem_unref(up, us->us_sem, false);
				linux_inst_lock(true);
				inst_site_remove_probe(us->us_site, pr->upr_id);
				linux_inst_lock(false);
			}
			pr->upr_nsites = k;
		}
	}
}

/* Destroy the probes no object has sites for, unless enabled (an enabled
 * one waits for its object to come back, or for the next scan after it is
 * disabled).  The core is called without usdt_lock. */
static void
sweep_empty(usdt_proc_t *up)
{
	dtrace_provider_id_t prov;
	usdt_probe_t *doomed;
	dtrace_id_t id;

	for (;;) {
		doomed = NULL;
		pthread_mutex_lock(&usdt_lock);
		for (usdt_prov_t *pv = up->up_provs; pv != NULL && doomed == NULL;
		     pv = pv->upv_next)
			for (usdt_probe_t *pr = pv->upv_probes; pr != NULL; pr = pr->upr_next)
				if (pr->upr_nsites == 0 && !pr->upr_enabled && !pr->upr_doomed) {
					pr->upr_doomed = true;
					doomed = pr;
					prov = pv->upv_id;
					id = pr->upr_id;
					break;
				}
		pthread_mutex_unlock(&usdt_lock);
		if (doomed == NULL)
			return;
		/* on success the core has called usdt_destroy, which freed it */
		if (dtrace_probe_destroy(prov, id) != 0) {
			pthread_mutex_lock(&usdt_lock);
			doomed->upr_doomed = false;
			pthread_mutex_unlock(&usdt_lock);
			return;
		}
	}
}

void
linux_usdt_scan(linux_proc_t *p)
{
	usdt_modlist_t ml;
	usdt_proc_t *up;
	usdt_obj_t *o, **op, *next;
	usdt_scan_t sc;
	int made = 0;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return;
	pthread_mutex_lock(&usdt_lock);
	up = usdt_proc_find(p, true);
	if (up != NULL)
		for (o = up->up_objs; o != NULL; o = o->uo_next)
			o->uo_mapped = false;
	pthread_mutex_unlock(&usdt_lock);
	if (up == NULL || up->up_gone || p->lp_state == LINUX_PROC_GONE)
		return;
	memset(&ml, 0, sizeof(ml));
	ml.ml_up = up;
	if (dtrace_port_module_iter(p, scan_module_cb, &ml) != 0)
		return;

	/* what went */
	pthread_mutex_lock(&usdt_lock);
	for (op = &up->up_objs; (o = *op) != NULL;) {
		if (o->uo_mapped) {
			op = &o->uo_next;
			continue;
		}
		obj_retire(up, o);
		*op = o->uo_next;
		free(o->uo_path);
		free(o);
	}
	pthread_mutex_unlock(&usdt_lock);
	sweep_empty(up);

	/* what came */
	for (o = ml.ml_new; o != NULL; o = next) {
		usdt_elf_t ue;
		const char *slash = strrchr(o->uo_path, '/');

		next = o->uo_next;
		pthread_mutex_lock(&usdt_lock);
		o->uo_next = up->up_objs;
		up->up_objs = o;
		pthread_mutex_unlock(&usdt_lock);
		if (elf_open(&ue, o->uo_path, o->uo_bias) != 0)
			continue;
		memset(&sc, 0, sizeof(sc));
		sc.sc_up = up;
		sc.sc_obj = o;
		sc.sc_mod = slash != NULL ? slash + 1 : o->uo_path;
		stap_notes(&ue, &sc);
		dof_images(&ue, &sc, o);
		elf_close(&ue);
		made += sc.sc_made;
	}
	if (made > 0)
		dtrace_enabling_matchall();
}

void
linux_usdt_process_gone(linux_proc_t *p)
{
	usdt_proc_t *up;

	pthread_mutex_lock(&usdt_lock);
	if ((up = usdt_proc_find(p, false)) != NULL) {
		up->up_gone = true;
		/* nothing of the process's memory is left to take back */
		for (linux_agent_sems_t *c = p->lp_block->lab_sems; c != NULL; c = c->lass_next)
			for (unsigned i = 0; i < LINUX_AGENT_SEMCHUNK; i++)
				c->lass_sem[i].las_applied = 0;
	}
	pthread_mutex_unlock(&usdt_lock);
}

int
linux_usdt_release(linux_proc_t *p)
{
	usdt_proc_t *up, **upp;
	usdt_prov_t *pv;
	linux_agent_sems_t *c, *cnext;

	pthread_mutex_lock(&usdt_lock);
	up = usdt_proc_find(p, false);
	pthread_mutex_unlock(&usdt_lock);
	if (up == NULL)
		return 0;
	while ((pv = up->up_provs) != NULL) {
		dtrace_invalidate(pv->upv_id);
		if (dtrace_unregister(pv->upv_id) != 0)
			return DTRACE_EBUSY;
		up->up_provs = pv->upv_next;
		free(pv);
	}
	pthread_mutex_lock(&usdt_lock);
	for (upp = &usdt_procs; *upp != NULL; upp = &(*upp)->up_next)
		if (*upp == up) {
			*upp = up->up_next;
			break;
		}
	pthread_mutex_unlock(&usdt_lock);
	while (up->up_objs != NULL) {
		usdt_obj_t *o = up->up_objs;

		up->up_objs = o->uo_next;
		free(o->uo_path);
		free(o);
	}
	for (c = p->lp_block->lab_sems; c != NULL; c = cnext) {
		cnext = c->lass_next;
		dtrace_port_free(c, sizeof(*c));
	}
	p->lp_block->lab_sems = NULL;
	free(up);
	return 0;
}
