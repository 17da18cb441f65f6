/*
 * port/freebsd/prov_sdt.c: the kernel's static probes (sdt(9)).
 *
 * Every linker file (the kernel and each module) carries linker sets of
 * SDT_PROVIDER_DEFINE and SDT_PROBE_DEFINE structures.  Each sdt provider
 * becomes a DTrace provider of the same name, registered while some loaded
 * file defines it (kernel/sdtprov.h keeps them by name); each sdt probe becomes a probe of that provider, with
 * "__" in its name written "-" as DTrace spells it.  A probe site fires
 * through sdt_probe_func when sdt_probes_enabled is set and its structure's
 * id is non-zero, so enabling a probe stores the DTrace id there and
 * disabling clears it.  Argument types come from the file's
 * sdt_argtypes_set.  Files loaded later are added from the kld_load event;
 * a file with an enabled probe cannot be unloaded (kld_unload_try), and
 * the probes of a file that goes are destroyed first.
 */
#include "freebsd_impl.h"
#include "sdtprov.h"

#include <sys/eventhandler.h>
#include <sys/linker.h>
#include <sys/sdt.h>
#include <sys/sx.h>

static struct sx fbsd_sdt_lock;
static sdt_probe_func_t fbsd_sdt_saved_func;
static bool fbsd_sdt_saved_enabled;
static int fbsd_sdt_nenabled;
static eventhandler_tag fbsd_sdt_load_tag, fbsd_sdt_unload_tag;

static void
fbsd_sdt_fire(uint32_t id, uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3, uintptr_t a4)
{
	dtrace_probe(id, a0, a1, a2, a3, a4);
}

static int
fbsd_sdt_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	struct sdt_probe *probe = parg_probe;

	(void)parg;
	probe->id = id;
	if (fbsd_sdt_nenabled++ == 0)
		sdt_probes_enabled = true;
	return 0;
}

static void
fbsd_sdt_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	struct sdt_probe *probe = parg_probe;

	(void)parg;
	(void)id;
	probe->id = 0;
	if (--fbsd_sdt_nenabled == 0)
		sdt_probes_enabled = fbsd_sdt_saved_enabled;
}

static void
fbsd_sdt_getargdesc(void *parg, dtrace_id_t id, void *parg_probe, dtrace_argdesc_t *desc)
{
	struct sdt_probe *probe = parg_probe;
	struct sdt_argtype **begin, **end, **a;

	(void)parg;
	(void)id;
	if (probe->sdtp_lf != NULL &&
	    linker_file_lookup_set(probe->sdtp_lf, "sdt_argtypes_set", &begin, &end, NULL) == 0) {
		for (a = begin; a < end; a++) {
			if ((*a)->probe != probe || (*a)->ndx != desc->dtargd_ndx)
				continue;
			strlcpy(desc->dtargd_native, (*a)->type, sizeof(desc->dtargd_native));
			if ((*a)->xtype != NULL)
				strlcpy(desc->dtargd_xlate, (*a)->xtype, sizeof(desc->dtargd_xlate));
			return;
		}
	}
	desc->dtargd_ndx = DTRACE_ARGNONE;
}

static const dtrace_pops_t fbsd_sdt_pops = {
	.dtps_provide = ksdt_provide_none, /* probes are made as their file is seen */
	.dtps_enable = fbsd_sdt_enable,
	.dtps_disable = fbsd_sdt_disable,
	.dtps_getargdesc = fbsd_sdt_getargdesc,
	.dtps_destroy = ksdt_destroy_none,
};

static int
fbsd_sdt_file_add(linker_file_t lf, void *arg)
{
	struct sdt_provider **pb, **pe, **pp;
	struct sdt_probe **b, **e, **p;
	char name[DTRACE_NAMELEN];

	(void)arg;
	if (linker_file_lookup_set(lf, "sdt_providers_set", &pb, &pe, NULL) == 0) {
		for (pp = pb; pp < pe; pp++)
			(void)ksdt_provider_hold((*pp)->name, &fbsd_sdt_pops, NULL);
	}
	if (linker_file_lookup_set(lf, "sdt_probes_set", &b, &e, NULL) != 0)
		return 0;
	for (p = b; p < e; p++) {
		dtrace_provider_id_t prov = ksdt_provider_find((*p)->prov->name);

		if (prov == 0)
			continue;
		(*p)->sdtp_lf = lf;
		ksdt_probename(name, sizeof(name), (*p)->name);
		if (dtrace_probe_lookup(prov, (*p)->mod, (*p)->func, name) == 0)
			dtrace_probe_create(prov, (*p)->mod, (*p)->func, name, 1, *p);
	}
	return 0;
}

static void
fbsd_sdt_file_remove(linker_file_t lf)
{
	struct sdt_provider **pb, **pe, **pp;
	struct sdt_probe **b, **e, **p;
	char name[DTRACE_NAMELEN];
	dtrace_provider_id_t prov;
	dtrace_id_t id;

	if (linker_file_lookup_set(lf, "sdt_probes_set", &b, &e, NULL) == 0) {
		for (p = b; p < e; p++) {
			prov = ksdt_provider_find((*p)->prov->name);
			ksdt_probename(name, sizeof(name), (*p)->name);
			if (prov != 0 &&
			    (id = dtrace_probe_lookup(prov, (*p)->mod, (*p)->func, name)) != 0)
				dtrace_probe_destroy(prov, id);
		}
	}
	/* a provider still busy keeps its hold */
	if (linker_file_lookup_set(lf, "sdt_providers_set", &pb, &pe, NULL) == 0) {
		for (pp = pb; pp < pe; pp++)
			(void)ksdt_provider_release((*pp)->name);
	}
}

static void
fbsd_sdt_kld_load(void *arg, linker_file_t lf)
{
	(void)arg;
	sx_xlock(&fbsd_sdt_lock);
	fbsd_sdt_file_add(lf, NULL);
	sx_xunlock(&fbsd_sdt_lock);
	dtrace_enabling_matchall();
}

static void
fbsd_sdt_kld_unload_try(void *arg, linker_file_t lf, int *error)
{
	struct sdt_probe **b, **e, **p;

	(void)arg;
	if (*error != 0)
		return;
	sx_xlock(&fbsd_sdt_lock);
	if (linker_file_lookup_set(lf, "sdt_probes_set", &b, &e, NULL) == 0) {
		for (p = b; p < e; p++) {
			if ((*p)->id != 0) {
				*error = EBUSY;
				break;
			}
		}
	}
	if (*error == 0)
		fbsd_sdt_file_remove(lf);
	sx_xunlock(&fbsd_sdt_lock);
}

int
fbsd_sdt_init(void)
{
	sx_init(&fbsd_sdt_lock, "dtrace sdt");
	fbsd_sdt_saved_func = sdt_probe_func;
	fbsd_sdt_saved_enabled = sdt_probes_enabled;
	sdt_probe_func = fbsd_sdt_fire;
	sx_xlock(&fbsd_sdt_lock);
	linker_file_foreach(fbsd_sdt_file_add, NULL);
	sx_xunlock(&fbsd_sdt_lock);
	fbsd_sdt_load_tag = EVENTHANDLER_REGISTER(kld_load, fbsd_sdt_kld_load, NULL,
						  EVENTHANDLER_PRI_ANY);
	fbsd_sdt_unload_tag = EVENTHANDLER_REGISTER(kld_unload_try, fbsd_sdt_kld_unload_try, NULL,
						    EVENTHANDLER_PRI_ANY);
	return 0;
}

/* Unregistering a provider destroys its probes.  The device nodes are
 * gone when this runs (module.c), so no consumer can open meanwhile: either
 * the first provider refuses (a consumer is still open) and nothing has
 * changed, or all go. */
int
fbsd_sdt_fini(void)
{
	int err;

	EVENTHANDLER_DEREGISTER(kld_load, fbsd_sdt_load_tag);
	EVENTHANDLER_DEREGISTER(kld_unload_try, fbsd_sdt_unload_tag);
	sx_xlock(&fbsd_sdt_lock);
	err = ksdt_provider_release_all();
	sx_xunlock(&fbsd_sdt_lock);
	if (err != 0) {
		fbsd_sdt_load_tag = EVENTHANDLER_REGISTER(kld_load, fbsd_sdt_kld_load, NULL,
							  EVENTHANDLER_PRI_ANY);
		fbsd_sdt_unload_tag = EVENTHANDLER_REGISTER(kld_unload_try, fbsd_sdt_kld_unload_try,
							    NULL, EVENTHANDLER_PRI_ANY);
		return err;
	}
	sdt_probe_func = fbsd_sdt_saved_func;
	sdt_probes_enabled = fbsd_sdt_saved_enabled;
	sx_destroy(&fbsd_sdt_lock);
	return 0;
}
