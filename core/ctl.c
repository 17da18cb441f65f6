/*
 * core/ctl.c: dtrace_ctl(), the control operations of a consumer state.
 *
 * One function per DTRACEIOC_* operation of DTrace, with its semantics and
 * its structures (core/dtrace_abi.h).  A kernel port calls dtrace_ctl() from
 * its device ioctl handler after copying the argument in; the Linux host
 * calls it directly.  Strings in descriptions are always terminated here
 * before use, and DOF images are copied into core memory before they are
 * checked, so a caller changing them meanwhile cannot confuse the loader.
 *
 * The operations that write through a pointer inside their structure
 * (snapshot data, the format string, the DOF image of DOFGET) and ENABLE's
 * image check are also exported to core/ctl_ioctl.c, which calls them with a
 * kernel's copyout instead of memcpy.
 *
 * Locks: each operation takes what it needs (PROVIDER before FRAMEWORK);
 * the caller holds none.  Never in probe context.
 */
#include "dtrace_impl.h"

static void
dtrace_ctl_terminate(dtrace_probedesc_t *desc)
{
	desc->dtpd_provider[DTRACE_PROVNAMELEN - 1] = '\0';
	desc->dtpd_mod[DTRACE_MODNAMELEN - 1] = '\0';
	desc->dtpd_func[DTRACE_FUNCNAMELEN - 1] = '\0';
	desc->dtpd_name[DTRACE_NAMELEN - 1] = '\0';
}

static int
dtrace_ctl_provider(dtrace_providerdesc_t *pvd)
{
	dtrace_provider_t *pvp;
	char name[DTRACE_PROVNAMELEN];

	memcpy(name, pvd->dtvd_name, sizeof(name));
	name[DTRACE_PROVNAMELEN - 1] = '\0';
	dtrace_port_lock(DTRACE_LOCK_PROVIDER);
	for (pvp = dtrace_providers; pvp != NULL; pvp = pvp->dtpv_next) {
		if (dtrace_strcmp(pvp->dtpv_name, name) == 0)
			break;
	}
	if (pvp != NULL) {
		pvd->dtvd_priv = pvp->dtpv_priv;
		pvd->dtvd_attr = pvp->dtpv_attr;
	}
	dtrace_port_unlock(DTRACE_LOCK_PROVIDER);
	return pvp != NULL ? 0 : DTRACE_ESRCH;
}

static int
dtrace_ctl_probes(dtrace_state_t *state, dtrace_probedesc_t *udesc, bool match)
{
	dtrace_probedesc_t desc = *udesc;
	dtrace_probe_t *probe = NULL;
	dtrace_probekey_t key;
	int m = 0;

	dtrace_ctl_terminate(&desc);
	/* a fresh iteration lets providers create the probes asked for */
	if (desc.dtpd_id == DTRACE_IDNONE) {
		dtrace_port_lock(DTRACE_LOCK_PROVIDER);
		dtrace_probe_provide(&desc, NULL);
		dtrace_port_unlock(DTRACE_LOCK_PROVIDER);
		desc.dtpd_id = 1;
	}
	if (match) {
		dtrace_probekey(&desc, &key);
		key.dtpk_id = DTRACE_IDNONE;
	}

	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	for (dtrace_id_t i = desc.dtpd_id; i != 0 && i <= dtrace_nprobes; i++) {
		dtrace_probe_t *p = dtrace_probes[i - 1];

		if (p == NULL)
			continue;
		if (match) {
			if ((m = dtrace_match_probe(p, &key, state->dts_priv, state->dts_uid)) != 0) {
				probe = p;
				break;
			}
		} else if (dtrace_match_priv(p, state->dts_priv, state->dts_uid)) {
			probe = p;
			break;
		}
	}
	if (m < 0) {
		dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
		return DTRACE_EINVAL; /* the pattern is too deep to evaluate */
	}
	if (probe == NULL) {
		dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
		return DTRACE_ESRCH;
	}
	dtrace_probe_description(probe, udesc);
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	return 0;
}

int
dtrace_ctl_dof_size(dtrace_state_t *state, const dof_hdr_t *hdr, size_t *sizep)
{
	if (hdr->dofh_loadsz >= DTRACE_DOF_MAXSIZE) {
		dtrace_state_seterr(state, "DOF load size exceeds maximum", NULL);
		return DTRACE_E2BIG;
	}
	if (hdr->dofh_loadsz < sizeof(*hdr)) {
		dtrace_state_seterr(state, "invalid DOF load size", NULL);
		return DTRACE_EINVAL;
	}
	*sizep = (size_t)hdr->dofh_loadsz;
	return 0;
}

int
dtrace_ctl_enable_image(dtrace_state_t *state, dof_hdr_t *dof, size_t size, int *rv)
{
	dtrace_enabling_t *enab = NULL;
	int err, nmatched = 0;

	*rv = 0;
	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	if (state->dts_activity != DTRACE_ACTIVITY_INACTIVE) {
		err = DTRACE_EBUSY;
		goto out;
	}
	if (dtrace_dof_slurp(dof, size, state, &enab) != 0) {
		err = DTRACE_EINVAL;
		goto out;
	}
	if ((err = dtrace_dof_options(dof, state)) != 0) {
		dtrace_enabling_destroy(enab);
		goto out;
	}
	if ((err = dtrace_enabling_match(enab, &nmatched)) != 0) {
		dtrace_state_seterr(state, "enabling failed to create ECBs", NULL);
		dtrace_enabling_destroy(enab);
		goto out;
	}
	if ((err = dtrace_enabling_retain(enab)) != 0) {
		dtrace_state_seterr(state, "too many retained enablings", NULL);
		dtrace_enabling_destroy(enab);
		goto out;
	}
	*rv = nmatched;
out:
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	dtrace_port_free(dof, size);
	return err;
}

static int
dtrace_ctl_enable(dtrace_state_t *state, const dof_hdr_t *udof, int *rv)
{
	dof_hdr_t hdr, *dof;
	size_t size;
	int err;

	*rv = 0;
	if (udof == NULL) {
		/* DTrace's cue to match retained enablings against new probes */
		dtrace_enabling_matchall();
		return 0;
	}

	memcpy(&hdr, udof, sizeof(hdr));
	if ((err = dtrace_ctl_dof_size(state, &hdr, &size)) != 0)
		return err;
	if ((dof = dtrace_port_zalloc(size)) == NULL)
		return DTRACE_ENOMEM;
	memcpy(dof, udof, size);
	return dtrace_ctl_enable_image(state, dof, size, rv);
}

static int
dtrace_ctl_eprobe(dtrace_state_t *state, dtrace_eprobedesc_t *desc)
{
	dtrace_ecb_t *ecb;
	dtrace_action_t *act;
	int32_t room = desc->dtepd_nrecs, n = 0, steps = 0;

	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	if ((ecb = dtrace_epid2ecb(state, desc->dtepd_epid)) == NULL || ecb->dte_probe == NULL) {
		dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
		return DTRACE_EINVAL;
	}
	desc->dtepd_probeid = ecb->dte_probe->dtpr_id;
	desc->dtepd_uarg = ecb->dte_uarg;
	desc->dtepd_size = ecb->dte_size;
	/* the records the consumer sees: neither keys nor aggregations (the
	 * walk bounded as a DOF action list is, whatever the shared list says) */
	for (act = ecb->dte_action; act != NULL && steps < DTRACE_ACTIONS_MAX;
	     act = act->dta_next, steps++) {
		if (DTRACEACT_ISAGG(act->dta_kind) || act->dta_intuple)
			continue;
		if (n < room)
			desc->dtepd_rec[n] = act->dta_rec;
		n++;
	}
	desc->dtepd_nrecs = n;
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	return 0;
}

static int
dtrace_ctl_aggdesc(dtrace_state_t *state, dtrace_aggdesc_t *desc)
{
	dtrace_aggregation_t *agg;

	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	if ((agg = dtrace_aggid2agg(state, desc->dtagd_id)) == NULL) {
		dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
		return DTRACE_EINVAL;
	}
	dtrace_aggregation_desc(agg, desc);
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	return 0;
}

static int
dtrace_ctl_probearg(dtrace_argdesc_t *desc)
{
	dtrace_probe_t *probe;
	dtrace_provider_t *prov;

	if (desc->dtargd_id == DTRACE_IDNONE || desc->dtargd_ndx == DTRACE_ARGNONE)
		return DTRACE_EINVAL;

	dtrace_port_lock(DTRACE_LOCK_PROVIDER);
	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	probe = dtrace_probe_lookup_id(desc->dtargd_id);
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	if (probe == NULL) {
		dtrace_port_unlock(DTRACE_LOCK_PROVIDER);
		return DTRACE_EINVAL;
	}
	prov = probe->dtpr_provider;
	if (prov->dtpv_pops.dtps_getargdesc == NULL) {
		desc->dtargd_ndx = DTRACE_ARGNONE; /* no typed arguments */
	} else {
		desc->dtargd_native[0] = '\0';
		desc->dtargd_xlate[0] = '\0';
		desc->dtargd_mapping = desc->dtargd_ndx;
		prov->dtpv_pops.dtps_getargdesc(prov->dtpv_arg, probe->dtpr_id, probe->dtpr_arg,
						desc);
		desc->dtargd_native[DTRACE_ARGTYPELEN - 1] = '\0';
		desc->dtargd_xlate[DTRACE_ARGTYPELEN - 1] = '\0';
	}
	dtrace_port_unlock(DTRACE_LOCK_PROVIDER);
	return 0;
}

static int
dtrace_ctl_status(dtrace_state_t *state, dtrace_status_t *st)
{
	uint64_t drops, dirty, rinsing;
	uint32_t activity;

	/* the consumer is alive: the deadman keeps refreshing dts_alive */
	dtrace_store_release64(&state->dts_laststatus, dtrace_port_gethrtime());

	memset(st, 0, sizeof(*st));
	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	activity = dtrace_state_activity(state);
	if (activity == DTRACE_ACTIVITY_INACTIVE) {
		dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
		return DTRACE_ENOENT;
	}
	if (activity == DTRACE_ACTIVITY_DRAINING)
		st->dtst_exiting = 1;
	dtrace_dstate_drops(&state->dts_vstate.dtvs_dynvars, &drops, &dirty, &rinsing);
	st->dtst_dyndrops = drops;
	st->dtst_dyndrops_dirty = dirty;
	st->dtst_dyndrops_rinsing = rinsing;
	dtrace_buffer_status(state, st);
	st->dtst_errors += state->dts_errors;
	st->dtst_stkstroverflows = state->dts_stkstroverflows;
	if (state->dts_rw != NULL)
		st->dtst_dblerrors = state->dts_rw->dsr_dblerrors;
	st->dtst_killed = activity == DTRACE_ACTIVITY_KILLED;
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	return 0;
}

/* The caller's own pointers: dtrace_ctl() copies with memcpy. */
static int
dtrace_ctl_memcpy(void *ctx, const void *src, uintptr_t dst, size_t len)
{
	(void)ctx;
	memcpy((void *)dst, src, len);
	return 0;
}

int
dtrace_ctl_format_copy(dtrace_state_t *state, dtrace_fmtdesc_t *fmt, dtrace_copyout_fn_t copyout,
		       void *ctx)
{
	const char *str;
	size_t len;
	int err = 0;

	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	if (fmt->dtfd_format == 0 || fmt->dtfd_format > state->dts_nformats ||
	    (str = state->dts_formats[fmt->dtfd_format - 1]) == NULL) {
		dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
		return DTRACE_EINVAL;
	}
	len = dtrace_strlen(str, SIZE_MAX) + 1;
	if (fmt->dtfd_length < 0 || len > (size_t)fmt->dtfd_length) {
		/* too small: say how much room it takes */
		fmt->dtfd_length = (int32_t)len;
	} else if (fmt->dtfd_string == NULL) {
		err = DTRACE_EINVAL;
	} else if (copyout(ctx, str, (uintptr_t)fmt->dtfd_string, len) != 0) {
		err = DTRACE_EFAULT;
	}
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	return err;
}

int
dtrace_ctl_dofget_copy(dtrace_state_t *state, uint64_t room, uintptr_t dst,
		       dtrace_copyout_fn_t copyout, void *ctx)
{
	dof_hdr_t *dof;
	size_t size;
	int err = 0;

	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	dof = dtrace_dof_create(state, &size);
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	if (dof == NULL)
		return DTRACE_ENOMEM;
	if (copyout(ctx, dof, dst, room < size ? (size_t)room : size) != 0)
		err = DTRACE_EFAULT;
	dtrace_port_free(dof, size);
	return err;
}

int
dtrace_ctl_snapshot(dtrace_state_t *state, dtrace_ctl_t cmd, dtrace_bufdesc_t *desc,
		    dtrace_copyout_fn_t copyout, void *ctx)
{
	int err;

	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	/* the arrays GO allocated, not the state's shared pointers */
	err = dtrace_buffer_snapshot_copy(
		state,
		dtrace_state_bufarray(state, cmd == DTRACE_CTL_BUFSNAP ? DTRACEOPT_BUFSIZE
								       : DTRACEOPT_AGGSIZE),
		desc, copyout, ctx);
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	return err;
}

static int
dtrace_ctl_replicate(dtrace_state_t *state, const dtrace_repldesc_t *udesc)
{
	dtrace_repldesc_t desc = *udesc;
	int err;

	dtrace_ctl_terminate(&desc.dtrpd_match);
	dtrace_ctl_terminate(&desc.dtrpd_create);
	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	err = dtrace_enabling_replicate(state, &desc.dtrpd_match, &desc.dtrpd_create);
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	return err;
}

int
dtrace_ctl(dtrace_state_t *state, dtrace_ctl_t cmd, void *arg, int *rv)
{
	int dummy, err;
	dtrace_cpuid_t cpu;

	if (rv == NULL)
		rv = &dummy;
	*rv = 0;
	if (state == NULL)
		return DTRACE_EINVAL;
	if (arg == NULL && cmd != DTRACE_CTL_ENABLE)
		return DTRACE_EFAULT;

	switch (cmd) {
	case DTRACE_CTL_PROVIDER:
		return dtrace_ctl_provider(arg);
	case DTRACE_CTL_PROBES:
		return dtrace_ctl_probes(state, arg, false);
	case DTRACE_CTL_PROBEMATCH:
		return dtrace_ctl_probes(state, arg, true);
	case DTRACE_CTL_ENABLE:
		return dtrace_ctl_enable(state, arg, rv);
	case DTRACE_CTL_EPROBE:
		return dtrace_ctl_eprobe(state, arg);
	case DTRACE_CTL_AGGDESC:
		return dtrace_ctl_aggdesc(state, arg);
	case DTRACE_CTL_PROBEARG:
		return dtrace_ctl_probearg(arg);
	case DTRACE_CTL_CONF: {
		dtrace_conf_t *conf = arg;

		memset(conf, 0, sizeof(*conf));
		conf->dtc_difversion = DIF_VERSION;
		conf->dtc_difintregs = DIF_DIR_NREGS;
		conf->dtc_diftupregs = DIF_DTR_NREGS;
		conf->dtc_ctfmodel = DOF_MODEL_NATIVE;
		return 0;
	}
	case DTRACE_CTL_STATUS:
		return dtrace_ctl_status(state, arg);
	case DTRACE_CTL_GO:
		dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
		err = dtrace_state_go(state, &cpu);
		dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
		if (err == 0)
			*(int32_t *)arg = (int32_t)cpu;
		return err;
	case DTRACE_CTL_STOP:
		dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
		err = dtrace_state_stop(state, &cpu);
		dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
		if (err == 0)
			*(int32_t *)arg = (int32_t)cpu;
		return err;
	case DTRACE_CTL_FORMAT:
		return dtrace_ctl_format_copy(state, arg, dtrace_ctl_memcpy, NULL);
	case DTRACE_CTL_DOFGET:
		return dtrace_ctl_dofget_copy(state, ((dof_hdr_t *)arg)->dofh_loadsz,
					      (uintptr_t)arg, dtrace_ctl_memcpy, NULL);
	case DTRACE_CTL_REPLICATE:
		return dtrace_ctl_replicate(state, arg);
	case DTRACE_CTL_BUFSNAP:
	case DTRACE_CTL_AGGSNAP:
		return dtrace_ctl_snapshot(state, cmd, arg, dtrace_ctl_memcpy, NULL);
	}
	return DTRACE_ENOTSUP;
}
