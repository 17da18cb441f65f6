/*
 * dt_probes.c: probes as the core lists them (PROBES, PROBEMATCH), their
 * argument types (PROBEARG) and their providers' stability (PROVIDER), for
 * dtrace -l, -lv and the compiler's probe matching.
 */
#include <errno.h>
#include <string.h>

#include "dt_impl.h"

/*
 * A description naming a probe by its id (dtrace -i 3, or a clause whose
 * description is a number): the core lists probes from an id onwards, so the
 * probe exists when the first one listed has that very id.
 */
int
dt_probe_lookup_id(dtrace_hdl_t *dtp, dtrace_id_t id, dtrace_probedesc_t *pd)
{
	memset(pd, 0, sizeof(*pd));
	pd->dtpd_id = id;
	if (dt_ctl(dtp, DTRACE_CTL_PROBES, pd, NULL) != 0)
		return -1;
	if (pd->dtpd_id != id)
		return dt_set_errno(dtp, ESRCH);
	return 0;
}

int
dtrace_probe_iter(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, dtrace_probe_f *func,
		  void *arg)
{
	dtrace_ctl_t cmd = pdp != NULL ? DTRACE_CTL_PROBEMATCH : DTRACE_CTL_PROBES;
	dtrace_probedesc_t pd;
	/* starting from DTRACE_IDNONE lets providers create the probes asked for */
	dtrace_id_t id = DTRACE_IDNONE;
	int matched = 0, rval;

	if (pdp != NULL && pdp->dtpd_id != DTRACE_IDNONE) {
		if (dt_probe_lookup_id(dtp, pdp->dtpd_id, &pd) != 0)
			return dt_set_errno(dtp, EDT_NOPROBE);
		return func(dtp, &pd, arg);
	}
	for (;;) {
		if (pdp != NULL)
			pd = *pdp;
		else
			memset(&pd, 0, sizeof(pd));
		pd.dtpd_id = id;
		if (dt_ctl(dtp, cmd, &pd, NULL) != 0) {
			if (dtp->dt_errno == ESRCH || dtp->dt_errno == ENOENT)
				break;
			return -1;
		}
		matched++;
		if ((rval = func(dtp, &pd, arg)) != 0)
			return rval;
		if (pd.dtpd_id < id)
			break; /* the core must move forward */
		id = pd.dtpd_id + 1;
	}
	if (matched == 0)
		return dt_set_errno(dtp, EDT_NOPROBE);
	return 0;
}

static void
dt_attr_min(dtrace_attribute_t *a, const dtrace_attribute_t *b)
{
	if (b->dtat_name < a->dtat_name)
		a->dtat_name = b->dtat_name;
	if (b->dtat_data < a->dtat_data)
		a->dtat_data = b->dtat_data;
	if (b->dtat_class < a->dtat_class)
		a->dtat_class = b->dtat_class;
}

/* An empty field or a glob pattern does not name one thing. */
static int
dt_field_isglob(const char *s)
{
	return s[0] == '\0' || strpbrk(s, "*?[\\") != NULL;
}

/* Keep the first probe a description matches and count up to two. */
static int
dt_probe_first(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, void *arg)
{
	dtrace_probedesc_t *first = arg;

	(void)dtp;
	if (first[1].dtpd_id++ == 0)
		first[0] = *pdp;
	return first[1].dtpd_id > 1;
}

/*
 * A description's attributes, as DTrace computes them: the minimum of the
 * provider's attributes for the fields the description names (empty and
 * glob fields do not count), Unstable when it names no provider; argument
 * types from the first matching probe.  A description matching several
 * probes has no information when the fields that should single one out
 * (those at least Evolving) are empty or globs.
 */
int
dtrace_probe_info(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, dtrace_probeinfo_t *pip)
{
	static const dtrace_attribute_t unstable = {DTRACE_STABILITY_UNSTABLE,
	                                            DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_COMMON};
	int m_glob = dt_field_isglob(pdp->dtpd_mod), f_glob = dt_field_isglob(pdp->dtpd_func);
	int n_glob = dt_field_isglob(pdp->dtpd_name);
	dtrace_providerdesc_t pvd;
	dtrace_probedesc_t first[2];
	const dtrace_pattr_t *pap;
	int i;

	memset(pip, 0, sizeof(*pip));
	memset(first, 0, sizeof(first));
	if (dtrace_probe_iter(dtp, pdp, dt_probe_first, first) < 0)
		return -1;
	memset(&pvd, 0, sizeof(pvd));
	(void)snprintf(pvd.dtvd_name, sizeof(pvd.dtvd_name), "%s", first[0].dtpd_provider);
	if (dt_ctl(dtp, DTRACE_CTL_PROVIDER, &pvd, NULL) != 0)
		return -1;
	dt_program_pattr(dtp, pvd.dtvd_name, &pvd.dtvd_attr);
	if (first[1].dtpd_id > 1 &&
	    (pvd.dtvd_attr.dtpa_args.dtat_data < DTRACE_STABILITY_EVOLVING ||
	     (pvd.dtvd_attr.dtpa_mod.dtat_name >= DTRACE_STABILITY_EVOLVING && m_glob) ||
	     (pvd.dtvd_attr.dtpa_func.dtat_name >= DTRACE_STABILITY_EVOLVING && f_glob) ||
	     (pvd.dtvd_attr.dtpa_name.dtat_name >= DTRACE_STABILITY_EVOLVING && n_glob)))
		return dt_set_errno(dtp, EDT_UNSTABLE);

	pap = &pvd.dtvd_attr;
	if (pdp->dtpd_id == DTRACE_IDNONE && dt_field_isglob(pdp->dtpd_provider)) {
		pip->dtp_attr = unstable;
		pip->dtp_arga = unstable;
	} else {
		pip->dtp_attr = pap->dtpa_provider;
		if (!m_glob)
			dt_attr_min(&pip->dtp_attr, &pap->dtpa_mod);
		if (!f_glob)
			dt_attr_min(&pip->dtp_attr, &pap->dtpa_func);
		if (!n_glob)
			dt_attr_min(&pip->dtp_attr, &pap->dtpa_name);
		pip->dtp_arga = pap->dtpa_args;
	}

	dtrace_argdesc_t ads[DTRACE_PROBEINFO_MAXARGS];

	for (i = 0; i < DTRACE_PROBEINFO_MAXARGS; i++) {
		dtrace_argdesc_t *ad = &ads[i];

		memset(ad, 0, sizeof(*ad));
		ad->dtargd_id = first[0].dtpd_id;
		ad->dtargd_ndx = i;
		if (dt_ctl(dtp, DTRACE_CTL_PROBEARG, ad, NULL) != 0 || ad->dtargd_ndx == DTRACE_ARGNONE)
			break;
		pip->dtp_argc++;
	}
	/* each argument's type as the compiler resolves it, "" (unknown) when it cannot */
	dt_program_argnames(dtp, ads, pip->dtp_argc, pip->dtp_argv);
	return 0;
}
