/*
 * port/netbsd/sdt.c: the kernel's statically defined probes (sdt).
 *
 * A NetBSD kernel built with KDTRACE_HOOKS collects every
 * SDT_PROVIDER_DEFINE, SDT_PROBE_DEFINE and SDT_PROBE_ARGTYPE into three
 * link sets (sys/sdt.h); each probe site tests its probe's `id` and, when
 * non-zero, calls through sdt_probe_func.  So this provider walks the sets
 * once at load: one DTrace provider per SDT provider, one probe per SDT
 * probe (a "__" in its name becomes "-", as in DTrace), argument types
 * from the argtype set.  Enabling stores the DTrace id into the SDT probe;
 * disabling stores 0.  sdt_probe_func is pointed here at load and put back
 * at unload.
 *
 * The sets' bounds are the kernel's: __start_/__stop_link_set_* are
 * defined by the linker for the kernel image, and a module's references
 * to them are resolved against the kernel's symbols when it is loaded, as
 * for NetBSD's own sdt module.  Probes in other modules' link sets are not
 * seen (7.99 has no module load hook to find them).
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/sdt.h>

#include "netbsd_impl.h"
#include "sdtprov.h"

extern struct sdt_provider *const __start_link_set_sdt_providers_set[];
extern struct sdt_provider *const __stop_link_set_sdt_providers_set[];
extern struct sdt_probe *const __start_link_set_sdt_probes_set[];
extern struct sdt_probe *const __stop_link_set_sdt_probes_set[];
extern struct sdt_argtype *const __start_link_set_sdt_argtypes_set[];
extern struct sdt_argtype *const __stop_link_set_sdt_argtypes_set[];

static sdt_probe_func_t sdt_saved_func;
static bool sdt_hooked;

static void
sdt_fire(uint32_t id, uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3, uintptr_t a4)
{
	dtrace_probe(id, a0, a1, a2, a3, a4);
}

static void
sdt_provide(void *parg, const dtrace_probedesc_t *desc)
{
	struct sdt_provider *prov = parg;
	struct sdt_probe *const *pp;
	char name[DTRACE_NAMELEN];
	dtrace_provider_id_t id = prov->id;

	(void)desc;
	for (pp = __start_link_set_sdt_probes_set; pp < __stop_link_set_sdt_probes_set; pp++) {
		if ((*pp)->prov != prov)
			continue;
		ksdt_probename(name, sizeof(name), (*pp)->name);
		if (dtrace_probe_lookup(id, (*pp)->mod, (*pp)->func, name) == 0)
			(void)dtrace_probe_create(id, (*pp)->mod, (*pp)->func, name, 1, *pp);
	}
}

static int
sdt_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	((struct sdt_probe *)parg_probe)->id = id;
	return 0;
}

static void
sdt_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	((struct sdt_probe *)parg_probe)->id = 0;
}

static void
sdt_getargdesc(void *parg, dtrace_id_t id, void *parg_probe, dtrace_argdesc_t *desc)
{
	struct sdt_argtype *const *ap;

	(void)parg;
	(void)id;
	for (ap = __start_link_set_sdt_argtypes_set; ap < __stop_link_set_sdt_argtypes_set; ap++) {
		if ((*ap)->probe != parg_probe || (*ap)->ndx != desc->dtargd_ndx)
			continue;
		desc->dtargd_mapping = desc->dtargd_ndx;
		strlcpy(desc->dtargd_native, (*ap)->type != NULL ? (*ap)->type : "",
			sizeof(desc->dtargd_native));
		strlcpy(desc->dtargd_xlate, (*ap)->xtype != NULL ? (*ap)->xtype : "",
			sizeof(desc->dtargd_xlate));
		return;
	}
	desc->dtargd_ndx = DTRACE_ARGNONE;
}

static const dtrace_pops_t sdt_pops = {
	.dtps_provide = sdt_provide,
	.dtps_enable = sdt_enable,
	.dtps_disable = sdt_disable,
	.dtps_getargdesc = sdt_getargdesc,
	.dtps_destroy = ksdt_destroy_none,
};

int
dtnb_sdt_init(void)
{
	struct sdt_provider *const *pp;

	for (pp = __start_link_set_sdt_providers_set; pp < __stop_link_set_sdt_providers_set; pp++) {
		/* The SDT provider's own id field carries ours to sdt_provide. */
		if (((*pp)->id = ksdt_provider_hold((*pp)->name, &sdt_pops, *pp)) == 0) {
			(void)dtnb_sdt_fini();
			return ENOMEM;
		}
	}
	sdt_saved_func = sdt_probe_func;
	sdt_probe_func = sdt_fire;
	sdt_hooked = true;
	return 0;
}

int
dtnb_sdt_fini(void)
{
	struct sdt_provider *const *pp;
	int err;

	/* Unregistering refuses while a probe is enabled: ids are all 0 when
	 * the last one goes, and only then is the hook handed back. */
	if ((err = ksdt_provider_release_all()) != 0)
		return err;
	for (pp = __start_link_set_sdt_providers_set; pp < __stop_link_set_sdt_providers_set; pp++)
		(*pp)->id = 0;
	if (sdt_hooked) {
		sdt_probe_func = sdt_saved_func;
		sdt_hooked = false;
	}
	return 0;
}
