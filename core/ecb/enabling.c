/*
 * core/ecb/enabling.c: enablings, the ECB descriptions a consumer loaded.
 *
 * DTRACE_CTL_ENABLE loads a DOF image into an enabling (one ECB
 * description per DOF ECB section), matches every description against the
 * probes that exist, creating one ECB per matching probe, and then RETAINS
 * the enabling: when providers later create probes (a module loads, a
 * process starts), dtrace_enabling_matchall() matches the retained
 * enablings again.  Each enabling remembers the probe generation it last
 * matched so that a probe never gets two ECBs from one description.
 *
 * Before GO, every retained enabling of the state is "primed": each
 * description gets one ECB with no probe, so that aggregation ids, record
 * sizes and the needed buffer size are known even when nothing matched.
 *
 * REPLICATE copies the descriptions whose probe description equals one
 * given description, under another probe description.
 *
 * Locks: matching takes DTRACE_LOCK_FRAMEWORK (the callers of
 * dtrace_enabling_match hold it); providing holds DTRACE_LOCK_PROVIDER and
 * drops FRAMEWORK around the provider callbacks.  Never in probe context.
 */
#include "../dtrace_impl.h"

dtrace_enabling_t *dtrace_retained;
static uint64_t dtrace_retained_gen;

void
dtrace_actdesc_release(dtrace_actdesc_t *act, dtrace_state_t *state)
{
	if (--act->dtad_refcnt != 0)
		return;
	if (act->dtad_difo != NULL)
		dtrace_difo_release(act->dtad_difo, &state->dts_vstate);
	if (act->dtad_arg != 0 &&
	    (DTRACEACT_ISPRINTFLIKE(act->dtad_kind) || act->dtad_kind == DTRACEACT_DIFEXPR))
		dtrace_strfree((char *)(uintptr_t)act->dtad_arg);
	dtrace_port_free(act, sizeof(*act));
}

void
dtrace_ecbdesc_release(dtrace_ecbdesc_t *ep, dtrace_state_t *state)
{
	dtrace_actdesc_t *act, *next;

	if (--ep->dted_refcnt != 0)
		return;
	if (ep->dted_pred != NULL)
		dtrace_difo_release(ep->dted_pred, &state->dts_vstate);
	for (act = ep->dted_action; act != NULL; act = next) {
		next = act->dtad_next;
		dtrace_actdesc_release(act, state);
	}
	dtrace_port_free(ep, sizeof(*ep));
}

dtrace_enabling_t *
dtrace_enabling_create(dtrace_state_t *state)
{
	dtrace_enabling_t *enab = dtrace_port_zalloc(sizeof(*enab));

	if (enab != NULL)
		enab->dten_state = state;
	return enab;
}

int
dtrace_enabling_add(dtrace_enabling_t *enab, dtrace_ecbdesc_t *ep)
{
	if (enab->dten_ndesc == enab->dten_maxdesc) {
		int n = enab->dten_maxdesc == 0 ? 1 : enab->dten_maxdesc * 2;
		dtrace_ecbdesc_t **ndesc = dtrace_port_zalloc((size_t)n * sizeof(*ndesc));

		if (ndesc == NULL)
			return DTRACE_ENOMEM;
		if (enab->dten_desc != NULL) {
			memcpy(ndesc, enab->dten_desc, (size_t)enab->dten_ndesc * sizeof(*ndesc));
			dtrace_port_free(enab->dten_desc,
					 (size_t)enab->dten_maxdesc * sizeof(*ndesc));
		}
		enab->dten_desc = ndesc;
		enab->dten_maxdesc = n;
	}
	enab->dten_desc[enab->dten_ndesc++] = ep;
	return 0;
}

static bool
dtrace_enabling_isretained(const dtrace_enabling_t *enab)
{
	return enab->dten_prev != NULL || enab->dten_next != NULL || dtrace_retained == enab;
}

void
dtrace_enabling_destroy(dtrace_enabling_t *enab)
{
	dtrace_state_t *state = enab->dten_state;

	for (int i = 0; i < enab->dten_ndesc; i++)
		dtrace_ecbdesc_release(enab->dten_desc[i], state);
	if (enab->dten_desc != NULL)
		dtrace_port_free(enab->dten_desc,
				 (size_t)enab->dten_maxdesc * sizeof(dtrace_ecbdesc_t *));

	if (dtrace_enabling_isretained(enab)) {
		state->dts_nretained--;
		dtrace_retained_gen++;
		if (enab->dten_prev != NULL)
			enab->dten_prev->dten_next = enab->dten_next;
		else
			dtrace_retained = enab->dten_next;
		if (enab->dten_next != NULL)
			enab->dten_next->dten_prev = enab->dten_prev;
	}
	dtrace_port_free(enab, sizeof(*enab));
}

int
dtrace_enabling_retain(dtrace_enabling_t *enab)
{
	dtrace_state_t *state = enab->dten_state;

	if (state->dts_nretained >= DTRACE_RETAIN_MAX)
		return DTRACE_ENOSPC;
	state->dts_nretained++;
	dtrace_retained_gen++;
	enab->dten_prev = NULL;
	enab->dten_next = dtrace_retained;
	if (dtrace_retained != NULL)
		dtrace_retained->dten_prev = enab;
	dtrace_retained = enab;
	return 0;
}

void
dtrace_enabling_retract(dtrace_state_t *state)
{
	dtrace_enabling_t *enab, *next;

	for (enab = dtrace_retained; enab != NULL; enab = next) {
		next = enab->dten_next;
		if (enab->dten_state == state)
			dtrace_enabling_destroy(enab);
	}
}

/* dtrace_match() callback: one ECB for this probe and the current description. */
static int
dtrace_ecb_create_enable(dtrace_probe_t *probe, void *arg)
{
	dtrace_enabling_t *enab = arg;
	dtrace_ecb_t *ecb;

	/* already given an ECB by an earlier match of this enabling */
	if (probe != NULL && probe->dtpr_gen < enab->dten_probegen)
		return DTRACE_MATCH_NEXT;
	if ((ecb = dtrace_ecb_create(enab->dten_state, probe, enab)) == NULL)
		return DTRACE_MATCH_DONE;
	if (dtrace_ecb_enable(ecb) < 0)
		return DTRACE_MATCH_FAIL;
	return DTRACE_MATCH_NEXT;
}

int
dtrace_enabling_match(dtrace_enabling_t *enab, int *nmatched)
{
	dtrace_state_t *state = enab->dten_state;
	int total = 0;

	for (int i = 0; i < enab->dten_ndesc; i++) {
		dtrace_ecbdesc_t *ep = enab->dten_desc[i];
		dtrace_probekey_t key;
		int matched;

		enab->dten_current = ep;
		enab->dten_error = 0;
		dtrace_ecb_create_cache_reset();
		dtrace_probekey(&ep->dted_probe, &key);
		matched = dtrace_match(&key, state->dts_priv, state->dts_uid,
				       dtrace_ecb_create_enable, enab);
		if (matched < 0)
			return enab->dten_error != 0 ? enab->dten_error : DTRACE_EBUSY;
		total += matched;
		if (enab->dten_error != 0)
			return enab->dten_error;
	}
	dtrace_ecb_create_cache_reset();
	enab->dten_probegen = dtrace_probegen;
	if (nmatched != NULL)
		*nmatched = total;
	return 0;
}

void
dtrace_enabling_matchall(void)
{
	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	for (dtrace_enabling_t *enab = dtrace_retained; enab != NULL; enab = enab->dten_next)
		(void)dtrace_enabling_match(enab, NULL);
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
}

void
dtrace_enabling_reprovide(dtrace_provider_id_t id)
{
	dtrace_port_lock(DTRACE_LOCK_PROVIDER);
	dtrace_enabling_provide((dtrace_provider_t *)id);
	dtrace_port_unlock(DTRACE_LOCK_PROVIDER);
	dtrace_enabling_matchall();
}

void
dtrace_enabling_prime(dtrace_state_t *state)
{
	for (dtrace_enabling_t *enab = dtrace_retained; enab != NULL; enab = enab->dten_next) {
		if (enab->dten_state != state || enab->dten_primed)
			continue;
		for (int i = 0; i < enab->dten_ndesc; i++) {
			enab->dten_current = enab->dten_desc[i];
			dtrace_ecb_create_cache_reset();
			(void)dtrace_ecb_create_enable(NULL, enab);
		}
		dtrace_ecb_create_cache_reset();
		enab->dten_primed = true;
	}
}

void
dtrace_enabling_provide(dtrace_provider_t *prv)
{
	dtrace_probedesc_t desc;
	uint64_t gen;

	/*
	 * Providers create probes under FRAMEWORK, so it is dropped around each
	 * call; if the retained list changed meanwhile, start over.
	 */
	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
retry:
	gen = dtrace_retained_gen;
	for (dtrace_enabling_t *enab = dtrace_retained; enab != NULL; enab = enab->dten_next) {
		for (int i = 0; i < enab->dten_ndesc; i++) {
			desc = enab->dten_desc[i]->dted_probe;
			dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
			dtrace_probe_provide(&desc, prv);
			dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
			if (gen != dtrace_retained_gen)
				goto retry;
		}
	}
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
}

int
dtrace_enabling_replicate(dtrace_state_t *state, const dtrace_probedesc_t *match,
			  const dtrace_probedesc_t *create)
{
	dtrace_enabling_t *new, *enab;
	bool found = false;
	int err;

	if ((new = dtrace_enabling_create(state)) == NULL)
		return DTRACE_ENOMEM;

	for (enab = dtrace_retained; enab != NULL; enab = enab->dten_next) {
		if (enab->dten_state != state)
			continue;
		for (int i = 0; i < enab->dten_ndesc; i++) {
			dtrace_ecbdesc_t *ep = enab->dten_desc[i], *nep;
			const dtrace_probedesc_t *pd = &ep->dted_probe;
			dtrace_actdesc_t *act;

			if (dtrace_strcmp(pd->dtpd_provider, match->dtpd_provider) != 0 ||
			    dtrace_strcmp(pd->dtpd_mod, match->dtpd_mod) != 0 ||
			    dtrace_strcmp(pd->dtpd_func, match->dtpd_func) != 0 ||
			    dtrace_strcmp(pd->dtpd_name, match->dtpd_name) != 0)
				continue;

			if ((nep = dtrace_port_zalloc(sizeof(*nep))) == NULL) {
				dtrace_enabling_destroy(new);
				return DTRACE_ENOMEM;
			}
			/* same predicate and actions, shared by reference */
			nep->dted_refcnt = 1;
			nep->dted_uarg = ep->dted_uarg;
			nep->dted_probe = *create;
			if ((nep->dted_pred = ep->dted_pred) != NULL)
				dtrace_difo_hold(nep->dted_pred);
			nep->dted_action = ep->dted_action;
			for (act = ep->dted_action; act != NULL; act = act->dtad_next)
				act->dtad_refcnt++;
			if (dtrace_enabling_add(new, nep) != 0) {
				dtrace_ecbdesc_release(nep, state);
				dtrace_enabling_destroy(new);
				return DTRACE_ENOMEM;
			}
			found = true;
		}
	}

	if (!found) {
		dtrace_enabling_destroy(new);
		return DTRACE_ENOENT;
	}
	if ((err = dtrace_enabling_retain(new)) != 0) {
		dtrace_enabling_destroy(new);
		return err;
	}
	return 0;
}
