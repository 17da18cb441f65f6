/*
 * core/probe_fire.c: dtrace_probe(), the one entry to probe context.
 *
 * A provider fires probe `id`; the port makes this CPU exclusive
 * (dtrace_port_probe_enter) or refuses (recursion, no slot), and the core
 * walks the probe's ECB chain.  For each ECB whose state may run now (ACTIVE;
 * or, for the `dtrace` provider's own probes, the state named by arg0 in
 * WARMUP for BEGIN, COOLDOWN for END, any running state for ERROR):
 *   1. reserve dte_needed bytes in the CPU's principal buffer (the rest of
 *      the buffer becomes DIF scratch) and write the record header;
 *   2. run the predicate; false leaves the reservation uncommitted;
 *   3. run each action: record its value at its offset, or act (exit,
 *      speculate, commit, discard, aggregate, destructive actions);
 *   4. on a fault, drop the partial record and fire ERROR with DTrace's
 *      arguments (arg1 EPID, arg2 action index with 0 the predicate, arg3
 *      DIF byte offset or -1, arg4 DTRACEFLT_* code, arg5 the faulting
 *      address); a fault inside an ERROR clause only counts dts_dblerrors;
 *   5. otherwise commit: the buffer offset moves past the record.
 *
 * Nothing here allocates, takes a lock, or loops without a bound known
 * before the loop starts (chains are finite lists built outside probe
 * context; strings and stacks are bounded by their record size).  Every
 * load of a D-supplied address goes through the DIF memory helpers, which
 * use the port's nofault loads.
 */
#include "dtrace_impl.h"

#define DTRACE_CPUF_STOPECB (DTRACE_CPUF_FAULT | DTRACE_CPUF_DROP)

static inline void
dtrace_store_val(char *tomax, uint64_t offs, uint32_t size, uint64_t val)
{
	switch (size) {
	case 1: {
		uint8_t v = (uint8_t)val;
		memcpy(tomax + offs, &v, 1);
		break;
	}
	case 2: {
		uint16_t v = (uint16_t)val;
		memcpy(tomax + offs, &v, 2);
		break;
	}
	case 4: {
		uint32_t v = (uint32_t)val;
		memcpy(tomax + offs, &v, 4);
		break;
	}
	case 8:
		memcpy(tomax + offs, &val, 8);
		break;
	default:
		break; /* other sizes are by reference (validated) */
	}
}

uint64_t
dtrace_probe_getarg(dtrace_mstate_t *mstate, int ndx)
{
	dtrace_probe_t *probe = mstate->dtms_probe;
	dtrace_provider_t *prov;

	if (ndx >= 0 && ndx < 5)
		return mstate->dtms_arg[ndx];
	if (probe == NULL)
		return 0;
	if (probe->dtpr_id == dtrace_probeid_error && ndx == 5)
		return dtrace_cpu_core[mstate->dtms_cpu].cpuc_error_illval;
	prov = probe->dtpr_provider;
	/* BEGIN, END and ERROR have no further arguments.  Answered here, not
	 * by a callback: they also fire in copies of the core attached from
	 * another address space (dtrace_attach), where a provider's function
	 * pointers mean nothing. */
	if (prov == dtrace_provider_self)
		return 0;
	if (prov->dtpv_pops.dtps_getargval != NULL)
		return prov->dtpv_pops.dtps_getargval(prov->dtpv_arg, probe->dtpr_id,
						      probe->dtpr_arg, ndx, probe->dtpr_aframes);
	return dtrace_port_getarg(ndx, probe->dtpr_aframes);
}

/* Fault unless the state may see kernel data (stack, sym, mod). */
static inline bool
dtrace_priv_kernel(const dtrace_state_t *state, dtrace_cpu_core_t *cpuc)
{
	if (state->dts_priv & DTRACE_PRIV_KERNEL)
		return true;
	cpuc->cpuc_flags |= DTRACE_CPUF_KPRIV;
	return false;
}

/* Fault unless the state may see process data (ustack, usym, ...). */
static inline bool
dtrace_priv_proc(const dtrace_state_t *state, dtrace_cpu_core_t *cpuc)
{
	if (state->dts_priv & (DTRACE_PRIV_PROC | DTRACE_PRIV_USER | DTRACE_PRIV_KERNEL))
		return true;
	cpuc->cpuc_flags |= DTRACE_CPUF_UPRIV;
	return false;
}

static inline bool
dtrace_priv_proc_destructive(const dtrace_state_t *state, dtrace_cpu_core_t *cpuc)
{
	if (state->dts_destructive_allowed && dtrace_priv_proc(state, cpuc))
		return true;
	cpuc->cpuc_flags |= DTRACE_CPUF_UPRIV;
	return false;
}

static inline bool
dtrace_priv_kernel_destructive(const dtrace_state_t *state, dtrace_cpu_core_t *cpuc)
{
	if (state->dts_destructive_allowed && (state->dts_priv & DTRACE_PRIV_KERNEL))
		return true;
	cpuc->cpuc_flags |= DTRACE_CPUF_KPRIV;
	return false;
}

/* chill(): at most DTRACE_CHILL_MAX of spinning per DTRACE_CHILL_INTERVAL. */
static void
dtrace_action_chill(dtrace_mstate_t *mstate, dtrace_cpu_core_t *cpuc, uint64_t ns)
{
	uint64_t now = dtrace_port_gethrtime();

	if (now - cpuc->cpuc_chillmark > (uint64_t)DTRACE_CHILL_INTERVAL) {
		cpuc->cpuc_chillmark = now;
		cpuc->cpuc_chilled = 0;
	}
	if (cpuc->cpuc_chilled + ns > (uint64_t)DTRACE_CHILL_MAX ||
	    cpuc->cpuc_chilled + ns < cpuc->cpuc_chilled) {
		cpuc->cpuc_flags |= DTRACE_CPUF_ILLOP;
		return;
	}
	dtrace_port_chill(ns);
	cpuc->cpuc_chilled += ns;
	/* timestamp may change within this ECB only because of chill() */
	mstate->dtms_present &= ~DTRACE_MSTATE_TIMESTAMP;
}

static void
dtrace_action_panic(const dtrace_ecb_t *ecb)
{
	static const char prefix[] = "dtrace: panic action at probe ";
	const dtrace_probe_t *probe = ecb->dte_probe;
	const char *parts[4];
	char msg[sizeof(prefix) + DTRACE_FULLNAMELEN];
	size_t n = sizeof(prefix) - 1;

	memcpy(msg, prefix, n);
	parts[0] = probe->dtpr_provider->dtpv_name;
	parts[1] = probe->dtpr_mod;
	parts[2] = probe->dtpr_func;
	parts[3] = probe->dtpr_name;
	for (int i = 0; i < 4; i++) {
		size_t len = dtrace_strlen(parts[i], DTRACE_FUNCNAMELEN);

		memcpy(msg + n, parts[i], len);
		n += len;
		if (i < 3)
			msg[n++] = ':';
	}
	msg[n] = '\0';
	dtrace_port_panic(msg);
}

/*
 * Record by-reference data (strings, structs, tracemem) of `size` bytes at
 * tomax + valoffs from the D address `val`; the tail of a string, and of
 * data cut short by tracemem's dynamic size, is zero-filled so that records
 * (and aggregation keys) never hold stale bytes.
 */
static void
dtrace_store_by_ref(const dtrace_difo_t *dp, char *dst, uint32_t size, uint64_t limit,
		    uint64_t val, dtrace_mstate_t *mstate, dtrace_vstate_t *vstate)
{
	bool user = (dp->dtdo_rtype.dtdt_flags & DIF_TF_BYUREF) != 0;
	int space = user ? DTRACE_AS_USER : DTRACE_AS_KERNEL;
	uint64_t n;

	if (dp->dtdo_rtype.dtdt_kind == DIF_TYPE_STRING) {
		if (user) {
			for (n = 0; n < size; n++) {
				uint8_t c = (uint8_t)dtrace_dif_load(mstate, space, val + n, 1);

				if (dtrace_cpu_core[mstate->dtms_cpu].cpuc_flags & DTRACE_CPUF_FAULT)
					return;
				dst[n] = (char)c;
				if (c == '\0')
					break;
			}
		} else {
			n = dtrace_dif_strlen(mstate, (uintptr_t)val, size);
			if (n < size)
				n++; /* the NUL */
			if (dtrace_cpu_core[mstate->dtms_cpu].cpuc_flags & DTRACE_CPUF_FAULT)
				return;
			if (!dtrace_dif_canload(val, n, mstate, vstate))
				return;
			if (n != 0 && !dtrace_dif_copy(mstate, space, (uintptr_t)val, dst, n))
				return;
		}
	} else {
		n = limit < size ? limit : size;
		if (!user && !dtrace_dif_canload(val, n, mstate, vstate))
			return;
		if (n != 0 && !dtrace_dif_copy(mstate, space, (uintptr_t)val, dst, n))
			return;
	}
	if (n < size)
		memset(dst + n, 0, size - n);
}

static void
dtrace_probe_error(dtrace_cpuid_t cpu, dtrace_state_t *state, dtrace_epid_t epid, int which,
		   int fltoffs, uint64_t fault, uint64_t illval)
{
	dtrace_cpu_core_t *cpuc = &dtrace_cpu_core[cpu];
	uint64_t saved = cpuc->cpuc_error_illval;

	cpuc->cpuc_flags &= ~DTRACE_CPUF_STOPECB;
	cpuc->cpuc_flags |= DTRACE_CPUF_ERROR;
	cpuc->cpuc_error_illval = illval;
	dtrace_probe_fire(cpu, dtrace_probeid_error, (uint64_t)(uintptr_t)state, epid,
			  (uint64_t)(int64_t)which, (uint64_t)(int64_t)fltoffs, fault);
	cpuc->cpuc_error_illval = saved;
	cpuc->cpuc_flags &= ~(DTRACE_CPUF_ERROR | DTRACE_CPUF_STOPECB);
}

void
dtrace_probe_fire(dtrace_cpuid_t cpu, dtrace_id_t id, uint64_t arg0, uint64_t arg1,
		  uint64_t arg2, uint64_t arg3, uint64_t arg4)
{
	dtrace_cpu_core_t *cpuc = &dtrace_cpu_core[cpu];
	dtrace_probe_t **probes, *probe;
	dtrace_provider_t *prov;
	dtrace_mstate_t mstate;
	dtrace_ecb_t *ecb;
	const dtrace_state_t *strtok_state;
	uint64_t now, alive;
	dtrace_id_t nprobes;

	nprobes = dtrace_load_acquire32(&dtrace_nprobes);
	probes = dtrace_load_acquireptr((void *const volatile *)&dtrace_probes);
	if (id == 0 || id > nprobes || probes == NULL)
		return;
	probe = dtrace_load_acquireptr((void *const volatile *)&probes[id - 1]);
	if (probe == NULL)
		return;
	prov = probe->dtpr_provider;

	now = dtrace_port_gethrtime();
	mstate.dtms_probe = probe;
	mstate.dtms_arg[0] = arg0;
	mstate.dtms_arg[1] = arg1;
	mstate.dtms_arg[2] = arg2;
	mstate.dtms_arg[3] = arg3;
	mstate.dtms_arg[4] = arg4;
	mstate.dtms_cpu = cpu;
	mstate.dtms_ipl = 0;
	/*
	 * strtok(NULL, ...) continues across the clauses of one firing, as
	 * DTrace's does (an implicit clause-local), but not into another
	 * consumer's clauses: reset when the ECB's state changes.
	 */
	strtok_state = NULL;

	for (ecb = dtrace_load_acquireptr((void *const volatile *)&probe->dtpr_ecb); ecb != NULL;
	     ecb = dtrace_load_acquireptr((void *const volatile *)&ecb->dte_next)) {
		dtrace_state_t *state = ecb->dte_state;
		dtrace_vstate_t *vstate = &state->dts_vstate;
		dtrace_buffer_t *buf, *aggbuf;
		dtrace_buffer_t view; /* buf as checked: records go to view.dtb_tomax */
		dtrace_action_t *act;
		uint64_t tracememsize = 0, val = 0;
		uint32_t activity;
		intptr_t offs;
		bool committed = false;
		int ndx;
		char *tomax;

		mstate.dtms_present = DTRACE_MSTATE_ARGS | DTRACE_MSTATE_PROBE;
		if (state != strtok_state) {
			mstate.dtms_strtok = 0;
			mstate.dtms_strtok_limit = 0;
			strtok_state = state;
		}
		mstate.dtms_difo = NULL;
		mstate.dtms_fltoffs = -1;
		cpuc->cpuc_flags &= ~DTRACE_CPUF_STOPECB;

		/* the dtrace provider's probes belong to the state in arg0 */
		if (prov == dtrace_provider_self && arg0 != (uint64_t)(uintptr_t)state)
			continue;

		activity = dtrace_state_activity(state);
		if (activity != DTRACE_ACTIVITY_ACTIVE) {
			if (prov != dtrace_provider_self)
				continue;
			/* after an exit() in BEGIN, later BEGIN clauses do not run */
			if (probe->dtpr_id == dtrace_probeid_begin &&
			    activity != DTRACE_ACTIVITY_WARMUP)
				continue;
			if (activity == DTRACE_ACTIVITY_INACTIVE ||
			    activity == DTRACE_ACTIVITY_KILLED || activity == DTRACE_ACTIVITY_STOPPED)
				continue;
		}

		if ((ecb->dte_cond & DTRACE_COND_OWNER) &&
		    dtrace_port_curthread_value(DTRACE_THR_UID) != state->dts_uid)
			continue;

		/* (dts_alive may be newer than `now`, read before this probe
		 * began: a consumer that has just shown life is alive) */
		alive = dtrace_load_acquire64(&state->dts_alive);
		if (now > alive && now - alive > (uint64_t)DTRACE_DEADMAN_TIMEOUT) {
			/* the consumer seems dead: stop, unless allowed to hang on */
			if (!state->dts_destructive_allowed || !(state->dts_priv & DTRACE_PRIV_KERNEL)) {
				/* the control side makes it KILLED; bounded: each
				 * retry means another CPU set a bit */
				for (int tries = 0; tries < 4 && state->dts_rw != NULL; tries++) {
					uint32_t cur = state->dts_rw->dsr_request;

					if ((cur & DTRACE_STATE_REQ_KILL) ||
					    dtrace_cas32(&state->dts_rw->dsr_request, cur,
							 cur | DTRACE_STATE_REQ_KILL) == cur)
						break;
				}
				continue;
			}
		}

		buf = &state->dts_buffer[cpu];
		aggbuf = &state->dts_aggbuffer[cpu];
		if ((offs = dtrace_buffer_reserve_checked(
			     buf, dtrace_state_geom(state, DTRACE_LEDGER_PRINCIPAL, cpu),
			     ecb->dte_needed, ecb->dte_alignment, state, &mstate, &view)) < 0)
			continue;
		tomax = view.dtb_tomax;

		if (ecb->dte_size != 0) {
			dtrace_rechdr_t dtrh;

			if (!(mstate.dtms_present & DTRACE_MSTATE_TIMESTAMP)) {
				mstate.dtms_timestamp = dtrace_port_gethrtime();
				mstate.dtms_present |= DTRACE_MSTATE_TIMESTAMP;
			}
			dtrh.dtrh_epid = ecb->dte_epid;
			DTRACE_RECORD_STORE_TIMESTAMP(&dtrh, mstate.dtms_timestamp);
			memcpy(tomax + offs, &dtrh, sizeof(dtrh));
		}

		mstate.dtms_epid = ecb->dte_epid;
		mstate.dtms_present |= DTRACE_MSTATE_EPID;
		mstate.dtms_access = dtrace_dif_access(state->dts_priv);

		if (ecb->dte_predicate != NULL) {
			uint64_t rval = dtrace_dif_emulate(ecb->dte_predicate, &mstate, vstate, state);

			if (!(cpuc->cpuc_flags & DTRACE_CPUF_STOPECB) && rval == 0)
				continue;
		}

		ndx = 0;
		for (act = ecb->dte_action; !(cpuc->cpuc_flags & DTRACE_CPUF_STOPECB) && act != NULL;
		     act = act->dta_next) {
			dtrace_recdesc_t *rec = &act->dta_rec;
			uint32_t size = rec->dtrd_size;
			uint64_t valoffs = (uint64_t)offs + rec->dtrd_offset;
			dtrace_difo_t *dp = act->dta_difo;

			ndx++;

			if (DTRACEACT_ISAGG(act->dta_kind)) {
				uint64_t v = 0;

				if (dp != NULL)
					v = dtrace_dif_emulate(dp, &mstate, vstate, state);
				if (cpuc->cpuc_flags & DTRACE_CPUF_STOPECB)
					break;
				/* `val` is the previous action's: the increment */
				cpuc->cpuc_flags |= dtrace_aggregate_checked(
					(dtrace_aggregation_t *)act, &view, offs, aggbuf,
					dtrace_state_geom(state, DTRACE_LEDGER_AGG, cpu), v, val);
				continue;
			}

			switch (act->dta_kind) {
			case DTRACEACT_STOP:
				if (dtrace_priv_proc_destructive(state, cpuc))
					dtrace_port_stop();
				continue;
			case DTRACEACT_BREAKPOINT:
				if (dtrace_priv_kernel_destructive(state, cpuc))
					dtrace_port_breakpoint();
				continue;
			case DTRACEACT_PANIC:
				if (dtrace_priv_kernel_destructive(state, cpuc))
					dtrace_action_panic(ecb);
				continue;
			case DTRACEACT_STACK: {
				int n;

				if (!dtrace_priv_kernel(state, cpuc))
					continue;
				n = dtrace_port_getpcstack((uint64_t *)(void *)(tomax + valoffs),
							   (int)(size / sizeof(uint64_t)),
							   probe->dtpr_aframes);
				if (n < 0)
					n = 0;
				if ((uint32_t)n * sizeof(uint64_t) < size)
					memset(tomax + valoffs + (uint32_t)n * sizeof(uint64_t), 0,
					       size - (uint32_t)n * sizeof(uint64_t));
				continue;
			}
			case DTRACEACT_JSTACK:
			case DTRACEACT_USTACK: {
				uint32_t nframes = DTRACE_USTACK_NFRAMES(rec->dtrd_arg);
				uint64_t *pcs = (uint64_t *)(void *)(tomax + valoffs);
				int n;

				if (!dtrace_priv_proc(state, cpuc))
					continue;
				/* no ustack helpers: the frame-name strings stay empty */
				memset(pcs, 0, size);
				n = dtrace_port_getustack(pcs, (int)nframes + 1);
				(void)n;
				continue;
			}
			default:
				break;
			}

			if (dp == NULL)
				continue; /* validated: only the actions above have none */
			val = dtrace_dif_emulate(dp, &mstate, vstate, state);
			if (cpuc->cpuc_flags & DTRACE_CPUF_STOPECB)
				break;

			switch (act->dta_kind) {
			case DTRACEACT_SPECULATE: {
				dtrace_rechdr_t dtrh;

				buf = dtrace_speculation_buffer(state, cpu, (dtrace_specid_t)val);
				if (buf == NULL) {
					cpuc->cpuc_flags |= DTRACE_CPUF_DROP;
					continue;
				}
				offs = dtrace_buffer_reserve_checked(
					buf,
					dtrace_state_geom(state,
							  DTRACE_LEDGER_SPEC + (int)(val - 1), cpu),
					ecb->dte_needed, ecb->dte_alignment, state, NULL, &view);
				if (offs < 0) {
					cpuc->cpuc_flags |= DTRACE_CPUF_DROP;
					continue;
				}
				tomax = view.dtb_tomax;
				if (ecb->dte_size == 0)
					continue;
				/* commit stamps speculative records */
				dtrh.dtrh_epid = ecb->dte_epid;
				DTRACE_RECORD_STORE_TIMESTAMP(&dtrh, UINT64_MAX);
				memcpy(tomax + offs, &dtrh, sizeof(dtrh));
				continue;
			}
			case DTRACEACT_CHILL:
				if (dtrace_priv_kernel_destructive(state, cpuc))
					dtrace_action_chill(&mstate, cpuc, val);
				continue;
			case DTRACEACT_RAISE:
				if (dtrace_priv_proc_destructive(state, cpuc)) {
					if (val >= 65) /* beyond every supported NSIG */
						cpuc->cpuc_flags |= DTRACE_CPUF_ILLOP;
					else if (val != 0)
						dtrace_port_raise((int)val);
				}
				continue;
			case DTRACEACT_COMMIT:
				/* our own record goes in before the speculation's */
				if (ecb->dte_size != 0)
					buf->dtb_offset = (uint64_t)offs + ecb->dte_size;
				buf = &state->dts_buffer[cpu];
				dtrace_speculation_commit(state, cpu, (dtrace_specid_t)val);
				committed = true;
				continue;
			case DTRACEACT_DISCARD:
				dtrace_speculation_discard(state, cpu, (dtrace_specid_t)val);
				continue;
			case DTRACEACT_DIFEXPR:
			case DTRACEACT_LIBACT:
			case DTRACEACT_PRINTF:
			case DTRACEACT_PRINTA:
			case DTRACEACT_SYSTEM:
			case DTRACEACT_FREOPEN:
			case DTRACEACT_TRACEMEM:
				break;
			case DTRACEACT_TRACEMEM_DYNSIZE:
				tracememsize = val;
				break;
			case DTRACEACT_SYM:
			case DTRACEACT_MOD:
				if (!dtrace_priv_kernel(state, cpuc))
					continue;
				break;
			case DTRACEACT_USYM:
			case DTRACEACT_UMOD:
			case DTRACEACT_UADDR: {
				uint64_t pid;

				if (!dtrace_priv_proc(state, cpuc))
					continue;
				pid = dtrace_port_curthread_value(DTRACE_THR_PID);
				memcpy(tomax + valoffs, &pid, sizeof(pid));
				memcpy(tomax + valoffs + sizeof(uint64_t), &val, sizeof(val));
				continue;
			}
			case DTRACEACT_EXIT: {
				/* at most one exit() wins while WARMUP or ACTIVE;
				 * COOLDOWN (END) may set the status again */
				uint32_t cur = dtrace_state_activity(state), req;

				if (cur == DTRACE_ACTIVITY_COOLDOWN)
					break;
				if ((cur != DTRACE_ACTIVITY_WARMUP && cur != DTRACE_ACTIVITY_ACTIVE) ||
				    state->dts_rw == NULL ||
				    ((req = state->dts_rw->dsr_request) & DTRACE_STATE_REQ_EXIT) ||
				    dtrace_cas32(&state->dts_rw->dsr_request, req,
						 req | DTRACE_STATE_REQ_EXIT) != req) {
					cpuc->cpuc_flags |= DTRACE_CPUF_DROP;
					continue;
				}
				break;
			}
			default:
				continue;
			}

			if (size == 0)
				continue;
			if (dp->dtdo_rtype.dtdt_flags & (DIF_TF_BYREF | DIF_TF_BYUREF)) {
				uint64_t limit = size;

				if (tracememsize != 0 && tracememsize < limit) {
					limit = tracememsize;
					tracememsize = 0;
				}
				dtrace_store_by_ref(dp, tomax + valoffs, size, limit, val, &mstate,
						    vstate);
				continue;
			}
			dtrace_store_val(tomax, valoffs, size, val);
		}

		if (cpuc->cpuc_flags & DTRACE_CPUF_DROP)
			continue;

		if (cpuc->cpuc_flags & DTRACE_CPUF_FAULT) {
			/* ndx is the faulting action's (1-based); 0 the predicate */
			int which = ndx;

			buf->dtb_errors++;
			if (probe->dtpr_id == dtrace_probeid_error) {
				/* an error in an ERROR clause: nothing more to do */
				DTRACE_STATE_COUNT(state, dsr_dblerrors);
				continue;
			}
			dtrace_probe_error(cpu, state, ecb->dte_epid, which,
					   (mstate.dtms_present & DTRACE_MSTATE_FLTOFFS)
						   ? mstate.dtms_fltoffs
						   : -1,
					   dtrace_fault_code(cpuc->cpuc_flags), cpuc->cpuc_illval);
			continue;
		}

		if (!committed)
			buf->dtb_offset = (uint64_t)offs + ecb->dte_size;
	}
}

volatile uint64_t dtrace_probes_refused;

void
dtrace_probe(dtrace_id_t id, uint64_t arg0, uint64_t arg1, uint64_t arg2, uint64_t arg3,
	     uint64_t arg4)
{
	dtrace_cpuid_t cpu;
	uintptr_t cookie;

	if (!dtrace_port_probe_enter(&cpu, &cookie)) {
		dtrace_error(&dtrace_probes_refused);
		return;
	}
	if (cpu < dtrace_ncpus) {
		dtrace_cpu_core[cpu].cpuc_flags |= DTRACE_CPUF_INPROBE;
		dtrace_probe_fire(cpu, id, arg0, arg1, arg2, arg3, arg4);
		dtrace_cpu_core[cpu].cpuc_flags &= ~DTRACE_CPUF_INPROBE;
	}
	dtrace_port_probe_exit(cpu, cookie);
}
