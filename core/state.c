/*
 * core/state.c: consumer states: open/close, options, GO and STOP, and the
 * cleaner and deadman timers.
 *
 * A state starts INACTIVE: it accepts enablings and options.  GO primes the
 * enablings (so sizes are known), checks that destructive actions were
 * allowed, sizes and allocates the principal, aggregation and speculation
 * buffers and the dynamic-variable store (halving a size that cannot be
 * allocated unless bufresize is "manual"), starts the timers, fires BEGIN on
 * the calling CPU while only that CPU's buffer is active (WARMUP), then
 * becomes ACTIVE and activates every CPU's buffer at once with cross-calls,
 * so no CPU ever runs half of a state's ECB chain.  exit() moves an ACTIVE
 * state to DRAINING.  STOP goes DRAINING -> COOLDOWN (two syncs: no CPU is
 * still ACTIVE), fires END with the fill reserve released, and ends STOPPED.
 *
 * The deadman: the consumer proves it is alive by asking STATUS; a timer
 * refreshes dts_alive only while the last STATUS is recent, and probe
 * context kills a state whose dts_alive is too old (unless destructive
 * actions are allowed, as in DTrace).
 *
 * Locking: the callers (dtrace_ctl) hold DTRACE_LOCK_FRAMEWORK for go, stop
 * and option; open and close take the locks themselves.  The timer
 * callbacks take no lock: close cancels them before tearing anything down.
 */
#include "dtrace_impl.h"

void
dtrace_state_seterr(dtrace_state_t *state, const char *what, const char *detail)
{
	size_t n;

	if (state == NULL)
		return;
	n = dtrace_strlcpy(state->dts_errmsg, what, sizeof(state->dts_errmsg));
	if (detail != NULL && detail[0] != '\0' && n + 2 < sizeof(state->dts_errmsg)) {
		state->dts_errmsg[n] = ':';
		state->dts_errmsg[n + 1] = ' ';
		dtrace_strlcpy(state->dts_errmsg + n + 2, detail, sizeof(state->dts_errmsg) - n - 2);
	}
}

const char *
dtrace_state_errmsg(const dtrace_state_t *state)
{
	return state->dts_errmsg[0] != '\0' ? state->dts_errmsg : NULL;
}

int
dtrace_state_open(uint32_t priv, uint32_t uid, dtrace_state_t **statep)
{
	dtrace_state_t *state;
	dtrace_optval_t *opt;

	if (statep == NULL)
		return DTRACE_EINVAL;
	if ((priv & DTRACE_PRIV_ALL) == DTRACE_PRIV_NONE)
		return DTRACE_EACCES;
	if (dtrace_provider_self == NULL)
		return DTRACE_EINVAL; /* dtrace_init() has not run */

	/* every provider offers all its probes to a new consumer */
	dtrace_port_lock(DTRACE_LOCK_PROVIDER);
	dtrace_probe_provide(NULL, NULL);
	dtrace_port_unlock(DTRACE_LOCK_PROVIDER);

	/* the per-CPU buffer arrays come with the buffers, at GO */
	if ((state = dtrace_port_zalloc(sizeof(*state))) == NULL)
		return DTRACE_ENOMEM;
	if ((state->dts_rw = dtrace_port_zalloc_probe(sizeof(*state->dts_rw))) == NULL) {
		dtrace_port_free(state, sizeof(*state));
		return DTRACE_ENOMEM;
	}
	state->dts_priv = priv & DTRACE_PRIV_ALL;
	state->dts_uid = uid;
	state->dts_epid = DTRACE_EPIDNONE + 1;
	state->dts_vstate.dtvs_state = state;
	state->dts_activity = DTRACE_ACTIVITY_INACTIVE;

	opt = state->dts_options;
	for (int i = 0; i < DTRACEOPT_MAX; i++)
		opt[i] = DTRACEOPT_UNSET;
	opt[DTRACEOPT_BUFPOLICY] = DTRACEOPT_BUFPOLICY_SWITCH;
	opt[DTRACEOPT_BUFRESIZE] = DTRACEOPT_BUFRESIZE_AUTO;
	opt[DTRACEOPT_NSPEC] = DTRACE_NSPEC_DEFAULT;
	opt[DTRACEOPT_SPECSIZE] = DTRACE_SPECSIZE_DEFAULT;
	/* cpu stays unset: every CPU (DTrace's DTRACE_CPUALL) */
	opt[DTRACEOPT_STRSIZE] = DTRACE_STRSIZE_DEFAULT;
	opt[DTRACEOPT_STACKFRAMES] = DTRACE_STACKFRAMES_DEFAULT;
	opt[DTRACEOPT_USTACKFRAMES] = DTRACE_USTACKFRAMES_DEFAULT;
	opt[DTRACEOPT_CLEANRATE] = DTRACE_CLEANRATE_DEFAULT;
	opt[DTRACEOPT_AGGRATE] = DTRACE_AGGRATE_DEFAULT;
	opt[DTRACEOPT_SWITCHRATE] = DTRACE_SWITCHRATE_DEFAULT;
	opt[DTRACEOPT_STATUSRATE] = DTRACE_STATUSRATE_DEFAULT;
	opt[DTRACEOPT_JSTACKFRAMES] = DTRACE_JSTACKFRAMES_DEFAULT;
	opt[DTRACEOPT_JSTACKSTRSIZE] = DTRACE_JSTACKSTRSIZE_DEFAULT;

	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	state->dts_next = dtrace_states;
	dtrace_states = state;
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);

	*statep = state;
	return 0;
}

int
dtrace_state_option(dtrace_state_t *state, uint32_t option, dtrace_optval_t val)
{
	/* the highest multiple of 128m a size may take: halving keeps it a
	 * whole number of megabytes */
	const dtrace_optval_t sizemax =
		(SIZE_MAX >> 1) < (uint64_t)INT64_MAX ? (dtrace_optval_t)(SIZE_MAX >> 1) : INT64_MAX;

	if (state->dts_activity != DTRACE_ACTIVITY_INACTIVE)
		return DTRACE_EBUSY;
	if (option >= DTRACEOPT_MAX)
		return DTRACE_EINVAL;
	if (option != DTRACEOPT_CPU && val < 0)
		return DTRACE_EINVAL;

	switch (option) {
	case DTRACEOPT_CPU:
		if (val == (dtrace_optval_t)DTRACE_CPUALL) {
			val = DTRACEOPT_UNSET; /* all CPUs, as the buffers expect */
			break;
		}
		if (val < 0 || val >= dtrace_ncpus)
			return DTRACE_EINVAL;
		break;
	case DTRACEOPT_DESTRUCTIVE:
		state->dts_destructive_allowed = 1;
		break;
	case DTRACEOPT_BUFPOLICY:
		if (val > DTRACEOPT_BUFPOLICY_SWITCH)
			return DTRACE_EINVAL;
		break;
	case DTRACEOPT_BUFRESIZE:
		if (val > DTRACEOPT_BUFRESIZE_MANUAL)
			return DTRACE_EINVAL;
		break;
	case DTRACEOPT_BUFSIZE:
	case DTRACEOPT_DYNVARSIZE:
	case DTRACEOPT_AGGSIZE:
	case DTRACEOPT_SPECSIZE:
	case DTRACEOPT_STRSIZE:
		if (val >= sizemax)
			val = sizemax - (1 << 27) + 1;
		break;
	default:
		break;
	}
	state->dts_options[option] = val;
	return 0;
}

/* Bytes to keep free in fill buffers for END: what END's ECBs need. */
static void
dtrace_state_prereserve(dtrace_state_t *state)
{
	dtrace_probe_t *probe;

	state->dts_reserve = 0;
	if (state->dts_options[DTRACEOPT_BUFPOLICY] != DTRACEOPT_BUFPOLICY_FILL)
		return;
	probe = dtrace_probe_lookup_id(dtrace_probeid_end);
	for (dtrace_ecb_t *ecb = probe->dtpr_ecb; ecb != NULL; ecb = ecb->dte_next) {
		if (ecb->dte_state == state)
			state->dts_reserve += ecb->dte_needed + ecb->dte_alignment;
	}
}

/*
 * The cleaner's argument is the state's ledger (private memory, see
 * core/buffers/buffer_impl.h), not the state: the timer never has to look
 * it up while another state's GO or close changes the list of ledgers.
 */
static void
dtrace_state_clean(void *arg)
{
	dtrace_ledger_t *l = arg;
	dtrace_state_t *state = l->dl_state;

	if (state->dts_activity == DTRACE_ACTIVITY_INACTIVE)
		return;
	dtrace_dynvar_clean(&state->dts_vstate.dtvs_dynvars);
	dtrace_speculation_clean_ledger(l);
}

static void
dtrace_state_deadman(void *arg)
{
	dtrace_state_t *state = arg;
	uint64_t now;

	dtrace_sync();
	now = dtrace_port_gethrtime();
	/* a consumer that stopped asking for status is not refreshed */
	if (now - state->dts_laststatus >= (uint64_t)DTRACE_DEADMAN_USER)
		return;
	dtrace_store_release64(&state->dts_alive, now);
}

int
dtrace_state_go(dtrace_state_t *state, dtrace_cpuid_t *cpup)
{
	dtrace_optval_t *opt = state->dts_options, sz;
	dtrace_cpuid_t cpu;
	uintptr_t cookie;
	int rval;

	if (state->dts_activity != DTRACE_ACTIVITY_INACTIVE)
		return DTRACE_EBUSY;

	/* ECBs of no probe for every description: sizes and ids are known */
	dtrace_enabling_prime(state);

	if (state->dts_destructive && !state->dts_destructive_allowed)
		return DTRACE_EACCES;

	dtrace_state_prereserve(state);

	if (opt[DTRACEOPT_AGGSIZE] != DTRACEOPT_UNSET && opt[DTRACEOPT_AGGSIZE] != 0) {
		if (state->dts_aggregations == NULL) {
			opt[DTRACEOPT_AGGSIZE] = 0; /* nothing aggregates */
		} else if (opt[DTRACEOPT_BUFSIZE] == DTRACEOPT_UNSET ||
			   opt[DTRACEOPT_BUFSIZE] < (dtrace_optval_t)state->dts_needed) {
			/* aggregation keys are built in the principal buffer */
			opt[DTRACEOPT_BUFSIZE] = state->dts_needed;
		}
	}
	if (opt[DTRACEOPT_SPECSIZE] != DTRACEOPT_UNSET && opt[DTRACEOPT_SPECSIZE] != 0 &&
	    !state->dts_speculates)
		opt[DTRACEOPT_SPECSIZE] = 0;

	/* a buffer we need was sized (or rounds) to nothing */
	sz = sizeof(uint64_t);
	if ((state->dts_needed != 0 && opt[DTRACEOPT_BUFSIZE] < sz) ||
	    (state->dts_speculates && opt[DTRACEOPT_SPECSIZE] < sz) ||
	    (state->dts_aggregations != NULL && opt[DTRACEOPT_AGGSIZE] < sz))
		return DTRACE_ENOSPC;

	/* principal, aggregation and speculation buffers, all or nothing */
	if ((rval = dtrace_state_buffers(state)) != 0)
		return rval;

	if ((sz = opt[DTRACEOPT_DYNVARSIZE]) == DTRACEOPT_UNSET)
		sz = DTRACE_DYNVARSIZE_DEFAULT;
	for (;;) {
		rval = dtrace_dstate_init(&state->dts_vstate.dtvs_dynvars, (size_t)sz);
		if (rval == 0)
			break;
		if (opt[DTRACEOPT_BUFRESIZE] == DTRACEOPT_BUFRESIZE_MANUAL || (sz >>= 1) == 0)
			goto err;
	}
	opt[DTRACEOPT_DYNVARSIZE] = sz;

	if (opt[DTRACEOPT_STATUSRATE] > DTRACE_STATUSRATE_MAX)
		opt[DTRACEOPT_STATUSRATE] = DTRACE_STATUSRATE_MAX;
	if (opt[DTRACEOPT_CLEANRATE] == 0)
		opt[DTRACEOPT_CLEANRATE] = DTRACE_CLEANRATE_MAX;
	if (opt[DTRACEOPT_CLEANRATE] < DTRACE_CLEANRATE_MIN)
		opt[DTRACEOPT_CLEANRATE] = DTRACE_CLEANRATE_MIN;
	if (opt[DTRACEOPT_CLEANRATE] > DTRACE_CLEANRATE_MAX)
		opt[DTRACEOPT_CLEANRATE] = DTRACE_CLEANRATE_MAX;

	/* BEGIN runs on this CPU, whose buffer alone is active during WARMUP */
	if (!dtrace_port_probe_enter(&cpu, &cookie)) {
		rval = DTRACE_EBUSY;
		goto err_dstate;
	}
	state->dts_alive = state->dts_laststatus = dtrace_port_gethrtime();
	dtrace_store_release32(&state->dts_activity, DTRACE_ACTIVITY_WARMUP);
	dtrace_buffer_activate_cpu(state, cpu);
	state->dts_beganon = cpu;
	dtrace_probe_fire(cpu, dtrace_probeid_begin, (uint64_t)(uintptr_t)state, 0, 0, 0, 0);
	dtrace_port_probe_exit(cpu, cookie);

	/* exit() in BEGIN already moved us to DRAINING: keep it */
	(void)dtrace_cas32(&state->dts_activity, DTRACE_ACTIVITY_WARMUP, DTRACE_ACTIVITY_ACTIVE);

	/* all CPUs start on the whole chain at once */
	dtrace_buffer_activate(state);

	state->dts_cleaner = dtrace_port_timer_start((uint64_t)opt[DTRACEOPT_CLEANRATE],
						     dtrace_state_clean, dtrace_ledger_lookup(state));
	state->dts_deadman =
		dtrace_port_timer_start(DTRACE_DEADMAN_INTERVAL, dtrace_state_deadman, state);

	if (cpup != NULL)
		*cpup = cpu;
	return 0;

err_dstate:
	dtrace_dstate_fini(&state->dts_vstate.dtvs_dynvars);
err:
	dtrace_state_buffers_free(state);
	return rval;
}

int
dtrace_state_stop(dtrace_state_t *state, dtrace_cpuid_t *cpup)
{
	dtrace_cpuid_t cpu;
	uintptr_t cookie;

	uint32_t activity = dtrace_state_activity(state);

	if (activity != DTRACE_ACTIVITY_ACTIVE && activity != DTRACE_ACTIVITY_DRAINING)
		return DTRACE_EINVAL;

	/* after two syncs no CPU can still be processing as ACTIVE, so END
	 * alone runs in COOLDOWN */
	dtrace_store_release32(&state->dts_activity, DTRACE_ACTIVITY_DRAINING);
	dtrace_sync();
	dtrace_store_release32(&state->dts_activity, DTRACE_ACTIVITY_COOLDOWN);
	dtrace_sync();

	state->dts_reserve = 0;
	if (!dtrace_port_probe_enter(&cpu, &cookie))
		return DTRACE_EBUSY;
	dtrace_probe_fire(cpu, dtrace_probeid_end, (uint64_t)(uintptr_t)state, 0, 0, 0, 0);
	dtrace_port_probe_exit(cpu, cookie);

	dtrace_store_release32(&state->dts_activity, DTRACE_ACTIVITY_STOPPED);
	dtrace_sync();
	if (cpup != NULL)
		*cpup = cpu;
	return 0;
}

void
dtrace_state_close(dtrace_state_t *state)
{
	dtrace_state_t **sp;

	if (state == NULL)
		return;

	/* the timers touch the state without locks: stop them first */
	if (state->dts_cleaner != NULL)
		dtrace_port_timer_cancel(state->dts_cleaner);
	if (state->dts_deadman != NULL)
		dtrace_port_timer_cancel(state->dts_deadman);
	state->dts_cleaner = state->dts_deadman = NULL;

	dtrace_port_lock(DTRACE_LOCK_FRAMEWORK);
	dtrace_enabling_retract(state);

	if (state->dts_activity == DTRACE_ACTIVITY_ACTIVE ||
	    state->dts_activity == DTRACE_ACTIVITY_DRAINING ||
	    state->dts_activity == DTRACE_ACTIVITY_WARMUP) {
		/* closed while running: no END, just stop every CPU using it */
		dtrace_store_release32(&state->dts_activity, DTRACE_ACTIVITY_KILLED);
		dtrace_sync();
	}

	for (dtrace_epid_t i = 0; i < state->dts_necbs; i++) {
		dtrace_ecb_t *ecb = state->dts_ecbs[i];

		if (ecb == NULL)
			continue;
		dtrace_ecb_disable(ecb);
		dtrace_ecb_destroy(ecb);
	}
	dtrace_sync(); /* no CPU is still writing our buffers */

	dtrace_state_buffers_free(state);
	dtrace_vstate_fini(&state->dts_vstate);

	if (state->dts_ecbs != NULL)
		dtrace_port_free(state->dts_ecbs, (size_t)state->dts_necbs * sizeof(dtrace_ecb_t *));
	if (state->dts_aggregations != NULL)
		dtrace_port_free(state->dts_aggregations, (size_t)state->dts_naggregations *
								  sizeof(dtrace_aggregation_t *));
	dtrace_format_destroy(state);

	for (sp = &dtrace_states; *sp != NULL; sp = &(*sp)->dts_next) {
		if (*sp == state) {
			*sp = state->dts_next;
			break;
		}
	}
	dtrace_port_unlock(DTRACE_LOCK_FRAMEWORK);
	dtrace_port_free_probe(state->dts_rw, sizeof(*state->dts_rw));
	dtrace_port_free(state, sizeof(*state));
}
