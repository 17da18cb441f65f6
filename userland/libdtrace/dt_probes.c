/*
 * dt_probes.c: probes as the core lists them (PROBES, PROBEMATCH), their
 * argument types (PROBEARG) and their providers' stability (PROVIDER), for
 * dtrace -l, -lv and the compiler's probe matching.
 */
#include <errno.h>
#include <string.h>

#include "dt_impl.h"

int
dtrace_probe_iter(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, dtrace_probe_f *func,
		  void *arg)
{
	dtrace_ctl_t cmd = pdp != NULL ? DTRACE_CTL_PROBEMATCH : DTRACE_CTL_PROBES;
	dtrace_probedesc_t pd;
	/* starting from DTRACE_IDNONE lets providers create the probes asked for */
	dtrace_id_t id = DTRACE_IDNONE;
	int matched = 0, rval;

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

int
dtrace_probe_info(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, dtrace_probeinfo_t *pip)
{
	dtrace_providerdesc_t pvd;
	int i;

	memset(pip, 0, sizeof(*pip));
	memset(&pvd, 0, sizeof(pvd));
	(void)snprintf(pvd.dtvd_name, sizeof(pvd.dtvd_name), "%s", pdp->dtpd_provider);
	if (dt_ctl(dtp, DTRACE_CTL_PROVIDER, &pvd, NULL) != 0)
		return -1;
	pip->dtp_attr = pvd.dtvd_attr.dtpa_provider;
	dt_attr_min(&pip->dtp_attr, &pvd.dtvd_attr.dtpa_mod);
	dt_attr_min(&pip->dtp_attr, &pvd.dtvd_attr.dtpa_func);
	dt_attr_min(&pip->dtp_attr, &pvd.dtvd_attr.dtpa_name);
	pip->dtp_arga = pvd.dtvd_attr.dtpa_args;

	for (i = 0; i < DTRACE_PROBEINFO_MAXARGS; i++) {
		dtrace_argdesc_t ad;

		memset(&ad, 0, sizeof(ad));
		ad.dtargd_id = pdp->dtpd_id;
		ad.dtargd_ndx = i;
		if (dt_ctl(dtp, DTRACE_CTL_PROBEARG, &ad, NULL) != 0 || ad.dtargd_ndx == DTRACE_ARGNONE)
			break;
		(void)snprintf(pip->dtp_argv[i], sizeof(pip->dtp_argv[i]), "%s",
		               ad.dtargd_xlate[0] != '\0' ? ad.dtargd_xlate : ad.dtargd_native);
		pip->dtp_argc++;
	}
	return 0;
}
