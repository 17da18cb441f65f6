/*
 * core/ecb/ecb.c: enabled probe control blocks.
 *
 * An ECB ties one ECB description (predicate + actions) of one consumer
 * state to one probe.  It gets the state's next EPID (dense from 1; the
 * consumer looks EPIDs up with DTRACE_CTL_EPROBE), and goes on the tail of
 * its probe's ECB chain.  The first ECB on a probe makes the core call the
 * provider's dtps_enable; removing the last calls dtps_disable.
 *
 * Probe context walks dtpr_ecb / dte_next without locks.  Publication is a
 * release store of a fully built ECB; removal unlinks it and then waits in
 * dtrace_sync() so that no CPU still holds it before it is freed.  The
 * EPID table may grow while the state runs (retained enablings matching new
 * probes); the old table is freed only after a sync as well.
 *
 * All of this runs with DTRACE_LOCK_FRAMEWORK held, never in probe context.
 */
#include "../dtrace_impl.h"

/*
 * ECBs created for one description while matching share its action list:
 * the first one builds it, the next ones take a reference (DTrace's
 * dtrace_ecb_create_cache).  Reset before each description is matched.
 */
static dtrace_ecb_t *dtrace_ecb_create_cache;

void
dtrace_ecb_create_cache_reset(void)
{
	dtrace_ecb_create_cache = NULL;
}

static dtrace_ecb_t *
dtrace_ecb_add(dtrace_state_t *state, dtrace_probe_t *probe)
{
	dtrace_ecb_t *ecb;
	dtrace_epid_t epid = state->dts_epid;

	if (epid == 0 || epid == UINT32_MAX) /* EPIDs exhausted */
		return NULL;
	if ((ecb = dtrace_port_zalloc(sizeof(*ecb))) == NULL)
		return NULL;
	ecb->dte_probe = probe;
	ecb->dte_state = state;
	/* the default action records the header alone */
	ecb->dte_size = ecb->dte_needed = sizeof(dtrace_rechdr_t);
	ecb->dte_alignment = sizeof(dtrace_epid_t);

	if (epid - 1 >= state->dts_necbs) {
		dtrace_epid_t n = state->dts_necbs == 0 ? 1 : state->dts_necbs * 2;
		dtrace_ecb_t **oecbs = state->dts_ecbs, **ecbs;

		if (n <= state->dts_necbs ||
		    (ecbs = dtrace_port_zalloc((size_t)n * sizeof(*ecbs))) == NULL) {
			dtrace_port_free(ecb, sizeof(*ecb));
			return NULL;
		}
		if (oecbs != NULL)
			memcpy(ecbs, oecbs, (size_t)state->dts_necbs * sizeof(*ecbs));
		dtrace_store_releaseptr((void *volatile *)&state->dts_ecbs, ecbs);
		if (oecbs != NULL) {
			/* a running state may be reading the old table */
			if (state->dts_activity != DTRACE_ACTIVITY_INACTIVE)
				dtrace_sync();
			dtrace_port_free(oecbs, (size_t)state->dts_necbs * sizeof(*oecbs));
		}
		dtrace_membar_producer();
		state->dts_necbs = n;
	}
	ecb->dte_epid = epid;
	state->dts_epid = epid + 1;
	dtrace_store_releaseptr((void *volatile *)&state->dts_ecbs[epid - 1], ecb);
	return ecb;
}

dtrace_ecb_t *
dtrace_epid2ecb(dtrace_state_t *state, dtrace_epid_t epid)
{
	if (epid == 0 || epid > state->dts_necbs)
		return NULL;
	return state->dts_ecbs[epid - 1];
}

int
dtrace_ecb_enable(dtrace_ecb_t *ecb)
{
	dtrace_probe_t *probe = ecb->dte_probe;

	if (probe == NULL)
		return 0; /* a primed ECB of no probe */

	if (probe->dtpr_ecb == NULL) {
		dtrace_provider_t *prov = probe->dtpr_provider;
		int err;

		probe->dtpr_ecb_last = ecb;
		dtrace_store_releaseptr((void *volatile *)&probe->dtpr_ecb, ecb);
		err = prov->dtpv_pops.dtps_enable(prov->dtpv_arg, probe->dtpr_id, probe->dtpr_arg);
		if (err != 0) {
			dtrace_store_releaseptr((void *volatile *)&probe->dtpr_ecb, NULL);
			probe->dtpr_ecb_last = NULL;
			dtrace_sync();
			return -1;
		}
		return 0;
	}
	dtrace_store_releaseptr((void *volatile *)&probe->dtpr_ecb_last->dte_next, ecb);
	probe->dtpr_ecb_last = ecb;
	return 0;
}

void
dtrace_ecb_disable(dtrace_ecb_t *ecb)
{
	dtrace_probe_t *probe = ecb->dte_probe;
	dtrace_ecb_t *pecb, *prev = NULL;

	if (probe == NULL)
		return;
	for (pecb = probe->dtpr_ecb; pecb != NULL && pecb != ecb; pecb = pecb->dte_next)
		prev = pecb;
	if (pecb == NULL)
		return; /* not on the chain (its enable failed) */

	if (prev == NULL)
		dtrace_store_releaseptr((void *volatile *)&probe->dtpr_ecb, ecb->dte_next);
	else
		dtrace_store_releaseptr((void *volatile *)&prev->dte_next, ecb->dte_next);
	if (probe->dtpr_ecb_last == ecb)
		probe->dtpr_ecb_last = prev;

	/* every CPU has left the chain as it was before we unlinked */
	dtrace_sync();
	ecb->dte_next = NULL;

	if (probe->dtpr_ecb == NULL) {
		dtrace_provider_t *prov = probe->dtpr_provider;

		prov->dtpv_pops.dtps_disable(prov->dtpv_arg, probe->dtpr_id, probe->dtpr_arg);
		dtrace_sync();
	}
}

void
dtrace_ecb_destroy(dtrace_ecb_t *ecb)
{
	dtrace_state_t *state = ecb->dte_state;
	dtrace_epid_t epid = ecb->dte_epid;

	if (ecb->dte_predicate != NULL)
		dtrace_difo_release(ecb->dte_predicate, &state->dts_vstate);
	dtrace_ecb_action_remove(ecb);
	if (epid != 0 && epid <= state->dts_necbs && state->dts_ecbs[epid - 1] == ecb)
		state->dts_ecbs[epid - 1] = NULL;
	if (dtrace_ecb_create_cache == ecb)
		dtrace_ecb_create_cache = NULL;
	dtrace_port_free(ecb, sizeof(*ecb));
}

dtrace_ecb_t *
dtrace_ecb_create(dtrace_state_t *state, dtrace_probe_t *probe, dtrace_enabling_t *enab)
{
	dtrace_ecbdesc_t *desc = enab->dten_current;
	dtrace_ecb_t *ecb;
	int err;

	if ((ecb = dtrace_ecb_add(state, probe)) == NULL) {
		enab->dten_error = DTRACE_ENOMEM;
		return NULL;
	}
	ecb->dte_uarg = desc->dted_uarg;

	if (desc->dted_pred != NULL) {
		dtrace_difo_hold(desc->dted_pred);
		ecb->dte_predicate = desc->dted_pred;
	}

	/*
	 * A provider whose probes reveal other users' processes: a consumer
	 * without DTRACE_PRIV_OWNER sees only firings in its own uid.
	 */
	if (probe != NULL && (probe->dtpr_provider->dtpv_priv.dtpp_flags & DTRACE_PRIV_USER) &&
	    state->dts_priv != DTRACE_PRIV_ALL && !(state->dts_priv & DTRACE_PRIV_OWNER))
		ecb->dte_cond |= DTRACE_COND_OWNER;

	if (dtrace_ecb_create_cache != NULL) {
		dtrace_ecb_t *cached = dtrace_ecb_create_cache;

		if (cached->dte_action != NULL) {
			cached->dte_action->dta_refcnt++;
			ecb->dte_action = cached->dte_action;
			ecb->dte_action_last = cached->dte_action_last;
			ecb->dte_needed = cached->dte_needed;
			ecb->dte_size = cached->dte_size;
			ecb->dte_alignment = cached->dte_alignment;
		}
		return ecb;
	}

	for (dtrace_actdesc_t *act = desc->dted_action; act != NULL; act = act->dtad_next) {
		if ((err = dtrace_ecb_action_add(ecb, act)) != 0)
			goto fail;
	}
	if ((err = dtrace_ecb_resize(ecb)) != 0)
		goto fail;
	return dtrace_ecb_create_cache = ecb;

fail:
	enab->dten_error = err;
	dtrace_ecb_destroy(ecb);
	return NULL;
}
