/*
 * core/provider.c: provider registration and removal.
 *
 * A provider registers a name, stability attributes, the privilege a
 * consumer needs to see its probes, and its callbacks.  The `dtrace`
 * provider is always first on the list (it registers in dtrace_init());
 * others follow in registration order.  A newly registered provider is
 * asked to provide probes for the enablings consumers have already made, and
 * those enablings are matched against what it created.
 *
 * Removal follows DTrace: refused while any consumer state is open (unless
 * the provider invalidated itself first) or while any of its probes still
 * has ECBs; otherwise its probes leave the tables, every CPU is synced out of
 * probe context, and only then are they destroyed and freed.
 *
 * Locks: DTRACE_LOCK_PROVIDER then DTRACE_LOCK_FRAMEWORK, taken here; the
 * callers hold neither.  Never in probe context.
 */
#include "dtrace_impl.h"

dtrace_provider_t *dtrace_providers;

static bool
dtrace_isalpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Provider names: [A-Za-z_.-][A-Za-z0-9_.`-]* (DTrace's dtrace_badname). */
static bool
dtrace_badname(const char *s)
{
	char c = *s++;

	if (!dtrace_isalpha(c) && c != '-' && c != '_' && c != '.')
		return true;
	while ((c = *s++) != '\0') {
		if (!dtrace_isalpha(c) && (c < '0' || c > '9') && c != '-' && c != '_' &&
		    c != '.' && c != '`')
			return true;
	}
	return false;
}

static bool
dtrace_badattr(const dtrace_attribute_t *a)
{
	return a->dtat_name > DTRACE_STABILITY_MAX || a->dtat_data > DTRACE_STABILITY_MAX ||
	       a->dtat_class > DTRACE_CLASS_MAX;
}

int
dtrace_register_owned(const char *name, const dtrace_pattr_t *attr, uint32_t priv, uint32_t uid,
		      const dtrace_pops_t *ops, void *parg, dtrace_provider_id_t *idp)
{
	dtrace_provider_t *prov;

	if (name == NULL || attr == NULL || ops == NULL || idp == NULL)
		return DTRACE_EINVAL;
	if (name[0] == '\0' || dtrace_strlen(name, DTRACE_PROVNAMELEN) >= DTRACE_PROVNAMELEN ||
	    dtrace_badname(name))
		return DTRACE_EINVAL;
	if (ops->dtps_provide == NULL || ops->dtps_enable == NULL || ops->dtps_disable == NULL ||
	    ops->dtps_destroy == NULL)
		return DTRACE_EINVAL;
	if (dtrace_badattr(&attr->dtpa_provider) || dtrace_badattr(&attr->dtpa_mod) ||
	    dtrace_badattr(&attr->dtpa_func) || dtrace_badattr(&attr->dtpa_name) ||
	    dtrace_badattr(&attr->dtpa_args))
		return DTRACE_EINVAL;
	if (priv & ~DTRACE_PRIV_ALL)
		return DTRACE_EINVAL;

	if ((prov = dtrace_port_zalloc(sizeof(*prov))) == NULL)
		return DTRACE_ENOMEM;
	if ((prov->dtpv_name = dtrace_strdup(name)) == NULL) {
		dtrace_port_free(prov, sizeof(*prov));
		return DTRACE_ENOMEM;
	}
	prov->dtpv_attr = *attr;
	prov->dtpv_priv.dtpp_flags = priv;
	prov->dtpv_priv.dtpp_uid = uid;
	prov->dtpv_pops = *ops;
	prov->dtpv_arg = parg;
	*idp = (dtrace_provider_id_t)prov;

	dtrace_port_lock(DTRACE_LOCK_PROVIDER);
	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	if (dtrace_providers == NULL) {
		dtrace_providers = prov;
	} else {
		/* after the `dtrace` provider, which stays first */
		dtrace_provider_t **pp = &dtrace_providers->dtpv_next;
		while (*pp != NULL)
			pp = &(*pp)->dtpv_next;
		*pp = prov;
	}
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);

	if (dtrace_retained != NULL) {
		dtrace_enabling_provide(prov);
		dtrace_port_unlock(DTRACE_LOCK_PROVIDER);
		dtrace_enabling_matchall();
		return 0;
	}
	dtrace_port_unlock(DTRACE_LOCK_PROVIDER);
	return 0;
}

int
dtrace_register(const char *name, const dtrace_pattr_t *attr, uint32_t priv,
		const dtrace_pops_t *ops, void *parg, dtrace_provider_id_t *idp)
{
	return dtrace_register_owned(name, attr, priv, 0, ops, parg, idp);
}

int
dtrace_unregister(dtrace_provider_id_t id)
{
	dtrace_provider_t *old = (dtrace_provider_t *)id, **pp;
	dtrace_probe_t *list, *probe, *next;

	if (old == NULL)
		return DTRACE_EINVAL;

	dtrace_port_lock(DTRACE_LOCK_PROVIDER);
	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);

	for (pp = &dtrace_providers; *pp != NULL && *pp != old; pp = &(*pp)->dtpv_next)
		continue;
	if (*pp == NULL) {
		dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
		dtrace_port_unlock(DTRACE_LOCK_PROVIDER);
		return DTRACE_ENOENT;
	}
	/* consumers may be about to enable its probes: refuse unless defunct */
	if (old->dtpv_defunct == 0 && dtrace_states != NULL)
		goto busy;
	for (dtrace_id_t i = 0; i < dtrace_nprobes; i++) {
		probe = dtrace_probes[i];
		if (probe != NULL && probe->dtpr_provider == old && probe->dtpr_ecb != NULL)
			goto busy;
	}

	list = dtrace_probe_unlink_provider(old, false);
	*pp = old->dtpv_next;
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	dtrace_port_unlock(DTRACE_LOCK_PROVIDER);

	/* no CPU may still be looking at a probe we are about to free */
	dtrace_sync();

	for (probe = list; probe != NULL; probe = next) {
		next = probe->dtpr_nextmod;
		old->dtpv_pops.dtps_destroy(old->dtpv_arg, probe->dtpr_id, probe->dtpr_arg);
		dtrace_probe_free(probe);
	}
	dtrace_strfree(old->dtpv_name);
	dtrace_port_free(old, sizeof(*old));
	return 0;

busy:
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	dtrace_port_unlock(DTRACE_LOCK_PROVIDER);
	return DTRACE_EBUSY;
}

void
dtrace_invalidate(dtrace_provider_id_t id)
{
	dtrace_provider_t *prov = (dtrace_provider_t *)id;

	dtrace_port_lock(DTRACE_LOCK_PROVIDER);
	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	prov->dtpv_defunct = dtrace_port_gethrtime() | 1; /* never 0 */
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	dtrace_port_unlock(DTRACE_LOCK_PROVIDER);
}

int
dtrace_condense(dtrace_provider_id_t id)
{
	dtrace_provider_t *prov = (dtrace_provider_t *)id;
	dtrace_probe_t *list, *probe, *next;

	if (prov == NULL || prov == dtrace_provider_self)
		return DTRACE_EINVAL;

	dtrace_port_lock(DTRACE_LOCK_PROVIDER);
	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	list = dtrace_probe_unlink_provider(prov, true);
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	dtrace_port_unlock(DTRACE_LOCK_PROVIDER);

	dtrace_sync();
	for (probe = list; probe != NULL; probe = next) {
		next = probe->dtpr_nextmod;
		prov->dtpv_pops.dtps_destroy(prov->dtpv_arg, probe->dtpr_id, probe->dtpr_arg);
		dtrace_probe_free(probe);
	}
	return 0;
}
