/*
 * port/freebsd/prov_sdt.c: the kernel's static probes (sdt(9)).
 *
 * Every linker file (the kernel and each module) carries linker sets of
 * SDT_PROVIDER_DEFINE and SDT_PROBE_DEFINE structures.  Each sdt provider
 * becomes a DTrace provider of the same name, registered while some loaded
 * file defines it; each sdt probe becomes a probe of that provider, with
 * "__" in its name written "-" as DTrace spells it.  A probe site fires
 * through sdt_probe_func when sdt_probes_enabled is set and its structure's
 * id is non-zero, so enabling a probe stores the DTrace id there and
 * disabling clears it.  Argument types come from the file's
 * sdt_argtypes_set.  Files loaded later are added from the kld_load event;
 * a file with an enabled probe cannot be unloaded (kld_unload_try), and
 * the probes of a file that goes are destroyed first.
 */
#include "freebsd_impl.h"

#include <sys/eventhandler.h>
#include <sys/linker.h>
#include <sys/sdt.h>
#include <sys/sx.h>

#define FBSD_SDT_MAXPROV 128

static struct fbsd_sdt_prov {
	char sp_name[DTRACE_PROVNAMELEN];
	dtrace_provider_id_t sp_id;
	int sp_refs; /* loaded files defining it; 0: free slot */
} fbsd_sdt_provs[FBSD_SDT_MAXPROV];

static struct sx fbsd_sdt_lock;
static sdt_probe_func_t fbsd_sdt_saved_func;
static bool fbsd_sdt_saved_enabled;
static int fbsd_sdt_nenabled;
static eventhandler_tag fbsd_sdt_load_tag, fbsd_sdt_unload_tag;

static const dtrace_pattr_t fbsd_sdt_attr = {
	.dtpa_provider = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING,
			  DTRACE_CLASS_COMMON},
	.dtpa_mod = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	.dtpa_func = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	.dtpa_name = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
	.dtpa_args = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
};

static void
fbsd_sdt_fire(uint32_t id, uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3, uintptr_t a4)
{
	dtrace_probe(id, a0, a1, a2, a3, a4);
}

static struct fbsd_sdt_prov *
fbsd_sdt_prov_find(const char *name)
{
	for (int i = 0; i < FBSD_SDT_MAXPROV; i++) {
		if (fbsd_sdt_provs[i].sp_refs > 0 && strcmp(fbsd_sdt_provs[i].sp_name, name) == 0)
			return &fbsd_sdt_provs[i];
	}
	return NULL;
}

static void
fbsd_sdt_noop_provide(void *parg, const dtrace_probedesc_t *desc)
{
	(void)parg;
	(void)desc; /* probes are created when their file is seen */
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

static void
fbsd_sdt_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	(void)parg_probe;
}

static const dtrace_pops_t fbsd_sdt_pops = {
	.dtps_provide = fbsd_sdt_noop_provide,
	.dtps_enable = fbsd_sdt_enable,
	.dtps_disable = fbsd_sdt_disable,
	.dtps_getargdesc = fbsd_sdt_getargdesc,
	.dtps_destroy = fbsd_sdt_destroy,
};

/* DTrace's spelling of a probe name: "__" becomes "-". */
static void
fbsd_sdt_name(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	while (*src != '\0' && n + 1 < size) {
		if (src[0] == '_' && src[1] == '_') {
			dst[n++] = '-';
			src += 2;
		} else {
			dst[n++] = *src++;
		}
	}
	dst[n] = '\0';
}

static int
fbsd_sdt_file_add(linker_file_t lf, void *arg)
{
	struct sdt_provider **pb, **pe, **pp;
	struct sdt_probe **b, **e, **p;
	char name[DTRACE_NAMELEN];

	(void)arg;
	if (linker_file_lookup_set(lf, "sdt_providers_set", &pb, &pe, NULL) == 0) {
		for (pp = pb; pp < pe; pp++) {
			struct fbsd_sdt_prov *sp = fbsd_sdt_prov_find((*pp)->name);

			if (sp == NULL) {
				for (int i = 0; i < FBSD_SDT_MAXPROV && sp == NULL; i++) {
					if (fbsd_sdt_provs[i].sp_refs == 0)
						sp = &fbsd_sdt_provs[i];
				}
				if (sp == NULL ||
				    dtrace_register((*pp)->name, &fbsd_sdt_attr, DTRACE_PRIV_USER,
						    &fbsd_sdt_pops, NULL, &sp->sp_id) != 0)
					continue;
				strlcpy(sp->sp_name, (*pp)->name, sizeof(sp->sp_name));
			}
			sp->sp_refs++;
		}
	}
	if (linker_file_lookup_set(lf, "sdt_probes_set", &b, &e, NULL) != 0)
		return 0;
	for (p = b; p < e; p++) {
		struct fbsd_sdt_prov *sp = fbsd_sdt_prov_find((*p)->prov->name);

		if (sp == NULL)
			continue;
		(*p)->sdtp_lf = lf;
		fbsd_sdt_name(name, sizeof(name), (*p)->name);
		if (dtrace_probe_lookup(sp->sp_id, (*p)->mod, (*p)->func, name) == 0)
			dtrace_probe_create(sp->sp_id, (*p)->mod, (*p)->func, name, 1, *p);
	}
	return 0;
}

static void
fbsd_sdt_file_remove(linker_file_t lf)
{
	struct sdt_provider **pb, **pe, **pp;
	struct sdt_probe **b, **e, **p;
	char name[DTRACE_NAMELEN];
	dtrace_id_t id;

	if (linker_file_lookup_set(lf, "sdt_probes_set", &b, &e, NULL) == 0) {
		for (p = b; p < e; p++) {
			struct fbsd_sdt_prov *sp = fbsd_sdt_prov_find((*p)->prov->name);

			fbsd_sdt_name(name, sizeof(name), (*p)->name);
			if (sp != NULL &&
			    (id = dtrace_probe_lookup(sp->sp_id, (*p)->mod, (*p)->func, name)) != 0)
				dtrace_probe_destroy(sp->sp_id, id);
		}
	}
	if (linker_file_lookup_set(lf, "sdt_providers_set", &pb, &pe, NULL) == 0) {
		for (pp = pb; pp < pe; pp++) {
			struct fbsd_sdt_prov *sp = fbsd_sdt_prov_find((*pp)->name);

			if (sp != NULL && sp->sp_refs == 1 && dtrace_unregister(sp->sp_id) != 0)
				continue; /* still busy: keep it */
			if (sp != NULL)
				sp->sp_refs--;
		}
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
	for (int i = 0; i < FBSD_SDT_MAXPROV; i++) {
		if (fbsd_sdt_provs[i].sp_refs == 0)
			continue;
		if ((err = dtrace_unregister(fbsd_sdt_provs[i].sp_id)) != 0) {
			sx_xunlock(&fbsd_sdt_lock);
			fbsd_sdt_load_tag = EVENTHANDLER_REGISTER(kld_load, fbsd_sdt_kld_load,
								  NULL, EVENTHANDLER_PRI_ANY);
			fbsd_sdt_unload_tag = EVENTHANDLER_REGISTER(
				kld_unload_try, fbsd_sdt_kld_unload_try, NULL, EVENTHANDLER_PRI_ANY);
			return err;
		}
		fbsd_sdt_provs[i].sp_refs = 0;
	}
	sx_xunlock(&fbsd_sdt_lock);
	sdt_probe_func = fbsd_sdt_saved_func;
	sdt_probes_enabled = fbsd_sdt_saved_enabled;
	sx_destroy(&fbsd_sdt_lock);
	return 0;
}
