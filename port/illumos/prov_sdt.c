/*
 * port/illumos/prov_sdt.c: the kernel's static probes (sdt sites).
 *
 * A DTRACE_PROBE*() in kernel code is a call to __dtrace_probe_<name> that
 * krtld turned into nops when it loaded the module, recording each site in
 * the module's sdt_probes list (name and text offset).  A name
 * "__<prov>_<probe>" belongs to provider <prov> (DTRACE_PROC1(exec, ..) is
 * proc:::exec); any other name to provider "sdt"; "__" inside a probe name
 * is written "-" as DTrace spells it.  A probe is (module, function
 * containing the site, name) and may have several sites.
 *
 * Enabling a probe writes 0xf0 (a lock prefix, which makes the nop that
 * follows an invalid opcode) on the first byte of each site; the #UD trap
 * reaches ill_sdt_invop through the breakpoint hook (trap.c), which fires
 * the probe with the argument registers and asks the trap code to step
 * over one byte as a nop.  Sites are found in probe context through a
 * fixed hash by address.  Modules loaded later come through the kernel's
 * dtrace_modload hook, unloads through dtrace_modunload; mod_nenabled keeps
 * krtld from unloading a module whose probes are enabled.
 */
#include "illumos_impl.h"
#include "sdtprov.h"

#include <sys/kobj.h>
#include <sys/sdt.h>

#define ILL_SDT_PATCHVAL 0xf0
#define ILL_SDT_NOP 0x90
#define ILL_SDT_HASH 1024 /* power of two */
#define ILL_SDT_MAXPROV 64

struct ill_sdt_site {
	uint8_t *ss_addr;
	struct ill_sdt_probe *ss_probe;
	struct ill_sdt_site *ss_hash;	  /* next in its hash bucket */
	struct ill_sdt_site *ss_next;	  /* next site of the probe */
};

struct ill_sdt_probe {
	dtrace_id_t sp_id;
	struct modctl *sp_ctl;
	int sp_loadcnt;			  /* the module's load it belongs to */
	struct ill_sdt_site *sp_sites;
};

static struct ill_sdt_site *volatile ill_sdt_tab[ILL_SDT_HASH];
static struct {
	char name[DTRACE_PROVNAMELEN];
	dtrace_provider_id_t id;
} ill_sdt_provs[ILL_SDT_MAXPROV];
static int ill_sdt_nprovs;
static void (*ill_sdt_saved_load)(struct modctl *);
static void (*ill_sdt_saved_unload)(struct modctl *);

static size_t
ill_sdt_bucket(uintptr_t addr)
{
	return (addr >> 2) & (ILL_SDT_HASH - 1);
}

int
ill_sdt_invop(uintptr_t addr, const isa_regs_t *regs)
{
	struct ill_sdt_site *ss;

	for (ss = ill_sdt_tab[ill_sdt_bucket(addr)]; ss != NULL; ss = ss->ss_hash) {
		if ((uintptr_t)ss->ss_addr == addr) {
			dtrace_probe(ss->ss_probe->sp_id, regs->r[ISA_REG_RDI], regs->r[ISA_REG_RSI],
				     regs->r[ISA_REG_RDX], regs->r[ISA_REG_RCX], regs->r[ISA_REG_R8]);
			return ILL_INVOP_NOP;
		}
	}
	return 0;
}

static void
ill_sdt_patch(struct ill_sdt_probe *sp, uint8_t val)
{
	for (struct ill_sdt_site *ss = sp->sp_sites; ss != NULL; ss = ss->ss_next)
		dtrace_port_text_write(NULL, (uintptr_t)ss->ss_addr, &val, 1);
}

static int
ill_sdt_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	struct ill_sdt_probe *sp = parg_probe;

	(void)parg;
	(void)id;
	if (!sp->sp_ctl->mod_loaded || sp->sp_ctl->mod_loadcnt != sp->sp_loadcnt)
		return 0; /* the module went away: nothing to patch */
	sp->sp_ctl->mod_nenabled++;
	ill_sdt_patch(sp, ILL_SDT_PATCHVAL);
	return 0;
}

static void
ill_sdt_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	struct ill_sdt_probe *sp = parg_probe;

	(void)parg;
	(void)id;
	if (!sp->sp_ctl->mod_loaded || sp->sp_ctl->mod_loadcnt != sp->sp_loadcnt)
		return;
	ill_sdt_patch(sp, ILL_SDT_NOP);
	sp->sp_ctl->mod_nenabled--;
}

/* Unhash the probe's sites, then free; the core has synced probe context. */
static void
ill_sdt_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	struct ill_sdt_probe *sp = parg_probe;
	struct ill_sdt_site *ss, *next;

	(void)parg;
	(void)id;
	for (ss = sp->sp_sites; ss != NULL; ss = next) {
		struct ill_sdt_site *volatile *pp = &ill_sdt_tab[ill_sdt_bucket((uintptr_t)ss->ss_addr)];

		while (*pp != NULL && *pp != ss)
			pp = &(*pp)->ss_hash;
		if (*pp == ss)
			*pp = ss->ss_hash;
		next = ss->ss_next;
		kmem_free(ss, sizeof(*ss));
	}
	kmem_free(sp, sizeof(*sp));
}

static const dtrace_pops_t ill_sdt_pops = {
	.dtps_provide = ksdt_provide_none, /* probes are made as their module is seen */
	.dtps_enable = ill_sdt_enable,
	.dtps_disable = ill_sdt_disable,
	.dtps_destroy = ill_sdt_destroy,
};

/* The provider of a site name, registering it the first time. */
static dtrace_provider_id_t
ill_sdt_provider(const char *sdname, const char **probe)
{
	char name[DTRACE_PROVNAMELEN] = "sdt";
	size_t n = 0;
	int i;

	*probe = sdname;
	if (sdname[0] == '_' && sdname[1] == '_') {
		const char *p = sdname + 2;

		while (p[n] != '\0' && p[n] != '_' && n + 1 < sizeof(name))
			n++;
		if (p[n] == '_' && n > 0) {
			memcpy(name, p, n);
			name[n] = '\0';
			*probe = p + n + 1;
		}
	}
	for (i = 0; i < ill_sdt_nprovs; i++) {
		if (strcmp(ill_sdt_provs[i].name, name) == 0)
			return ill_sdt_provs[i].id;
	}
	if (i == ILL_SDT_MAXPROV || dtrace_register(name, &ksdt_attr, DTRACE_PRIV_USER,
						     &ill_sdt_pops, NULL, &ill_sdt_provs[i].id) != 0)
		return 0;
	(void)strcpy(ill_sdt_provs[i].name, name);
	ill_sdt_nprovs++;
	return ill_sdt_provs[i].id;
}

static void
ill_sdt_add_module(struct modctl *ctl)
{
	struct module *mp = ctl->mod_mp;
	sdt_probedesc_t *sd;

	if (mp == NULL || !ctl->mod_loaded)
		return;
	for (sd = mp->sdt_probes; sd != NULL; sd = sd->sdpd_next) {
		uint8_t *addr = (uint8_t *)mp->text + sd->sdpd_offset;
		char name[DTRACE_NAMELEN], *func;
		const char *probe;
		dtrace_provider_id_t prov;
		struct ill_sdt_probe *sp;
		struct ill_sdt_site *ss;
		dtrace_id_t id;
		ulong_t off;

		if ((prov = ill_sdt_provider(sd->sdpd_name, &probe)) == 0)
			continue;
		ksdt_probename(name, sizeof(name), probe);
		if ((func = kobj_getsymname((uintptr_t)addr, &off)) == NULL)
			func = "";
		if ((id = dtrace_probe_lookup(prov, ctl->mod_modname, func, name)) != 0) {
			sp = dtrace_probe_arg(prov, id);
		} else {
			sp = kmem_zalloc(sizeof(*sp), KM_SLEEP);
			sp->sp_ctl = ctl;
			sp->sp_loadcnt = ctl->mod_loadcnt;
			if ((sp->sp_id = dtrace_probe_create(prov, ctl->mod_modname, func, name, 3,
							     sp)) == 0) {
				kmem_free(sp, sizeof(*sp));
				continue;
			}
		}
		ss = kmem_zalloc(sizeof(*ss), KM_SLEEP);
		ss->ss_addr = addr;
		ss->ss_probe = sp;
		ss->ss_next = sp->sp_sites;
		sp->sp_sites = ss;
		ss->ss_hash = ill_sdt_tab[ill_sdt_bucket((uintptr_t)addr)];
		membar_producer();
		ill_sdt_tab[ill_sdt_bucket((uintptr_t)addr)] = ss;
	}
}

static void
ill_sdt_modload(struct modctl *ctl)
{
	ill_sdt_add_module(ctl);
	dtrace_enabling_matchall();
	if (ill_sdt_saved_load != NULL)
		ill_sdt_saved_load(ctl);
}

/* krtld does not unload a module with enabled probes (mod_nenabled), so
 * every probe of this one can be destroyed. */
static void
ill_sdt_modunload(struct modctl *ctl)
{
	for (int i = 0; i < ill_sdt_nprovs; i++) {
		dtrace_id_t id;

		while ((id = dtrace_probe_lookup(ill_sdt_provs[i].id, ctl->mod_modname, NULL,
						 NULL)) != 0) {
			if (dtrace_probe_destroy(ill_sdt_provs[i].id, id) != 0)
				break;
		}
	}
	if (ill_sdt_saved_unload != NULL)
		ill_sdt_saved_unload(ctl);
}

int
ill_sdt_init(void)
{
	struct modctl *ctl = &modules;

	mutex_enter(&mod_lock);
	do {
		ill_sdt_add_module(ctl);
	} while ((ctl = ctl->mod_next) != &modules);
	mutex_exit(&mod_lock);
	ill_sdt_saved_load = dtrace_modload;
	ill_sdt_saved_unload = dtrace_modunload;
	dtrace_modload = ill_sdt_modload;
	dtrace_modunload = ill_sdt_modunload;
	return 0;
}

/* Unregistering destroys the probes; the first provider refuses while a
 * consumer is open, before anything changed. */
int
ill_sdt_fini(void)
{
	int err;

	while (ill_sdt_nprovs > 0) {
		if ((err = dtrace_unregister(ill_sdt_provs[ill_sdt_nprovs - 1].id)) != 0)
			return err;
		ill_sdt_nprovs--;
	}
	dtrace_modload = ill_sdt_saved_load;
	dtrace_modunload = ill_sdt_saved_unload;
	return 0;
}
