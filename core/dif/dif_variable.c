/*
 * core/dif/dif_variable.c: DIF's built-in variables (ldgs of an id below
 * DIF_VAR_OTHER_UBASE, and the args[]/uregs[] arrays of ldga).
 *
 * Values come from the machine state (arguments, EPID, probe) or from
 * core/port.h (time, thread facts, stacks), and costly ones are computed at
 * most once per firing (the dtms_present bits).  Privilege is DTrace's:
 * process facts need DTRACE_ACCESS_PROC (else UPRIV), kernel facts
 * DTRACE_ACCESS_KERNEL (else KPRIV), the probe's arguments
 * DTRACE_ACCESS_ARGS (else KPRIV).  Strings that live outside D-owned
 * memory (probe names, execname, zonename) are copied into scratch when the
 * consumer may not read kernel memory, so that later string operations pass
 * their access checks.
 *
 * Probe context only.  The validator has already refused ids this file does
 * not know; an unknown id reaching here is an ILLOP fault.
 */
#include "dif_internal.h"

/* Every process answers "global": the core has no zones. */
static const char dif_zonename[] = "global";

static bool
dif_priv_proc(dtrace_mstate_t *mstate)
{
	if (mstate->dtms_access & DTRACE_ACCESS_PROC)
		return true;
	dtrace_dif_fault(mstate, DTRACE_CPUF_UPRIV, 0);
	return false;
}

static bool
dif_priv_kernel(dtrace_mstate_t *mstate)
{
	if (mstate->dtms_access & DTRACE_ACCESS_KERNEL)
		return true;
	dtrace_dif_fault(mstate, DTRACE_CPUF_KPRIV, 0);
	return false;
}

/*
 * A string for D: the pointer itself with kernel access, else a copy of at
 * most strsize bytes in scratch.
 */
static uint64_t
dif_varstr(dtrace_mstate_t *mstate, dtrace_state_t *state, const char *s)
{
	size_t len, strsize = dtrace_dif_strsize(state);
	char *dst;

	if (s == NULL)
		return 0;
	if (mstate->dtms_access & DTRACE_ACCESS_KERNEL)
		return (uintptr_t)s;
	len = dtrace_dif_strlen(mstate, (uintptr_t)s, strsize);
	if (dtrace_dif_faulted(mstate))
		return 0;
	if ((dst = (char *)dtrace_dif_scratch(mstate, len + 1, 1)) == NULL)
		return 0;
	dtrace_dif_copy(mstate, DTRACE_AS_KERNEL, (uintptr_t)s, dst, len);
	dst[len] = '\0';
	return (uintptr_t)dst;
}

static uint64_t
dif_arg(dtrace_mstate_t *mstate, uint64_t ndx)
{
	if (!(mstate->dtms_access & DTRACE_ACCESS_ARGS)) {
		dtrace_dif_fault(mstate, DTRACE_CPUF_KPRIV, 0);
		return 0;
	}
	/* arg5 and beyond: the provider, the port, or (ERROR) the fault address */
	return dtrace_probe_getarg(mstate, ndx > 0x7fffffff ? 0x7fffffff : (int)ndx);
}

uint64_t
dtrace_dif_variable(dtrace_mstate_t *mstate, dtrace_state_t *state, uint64_t v, uint64_t ndx)
{
	dtrace_probe_t *probe = mstate->dtms_probe;
	bool ok;

	if (v >= DIF_VAR_ARG0 && v <= DIF_VAR_ARG9) {
		ndx = v - DIF_VAR_ARG0;
		v = DIF_VAR_ARGS;
	}

	switch (v) {
	case DIF_VAR_ARGS:
		return dif_arg(mstate, ndx);

	case DIF_VAR_UREGS: {
		uint64_t r;

		if (!dif_priv_proc(mstate))
			return 0;
		r = dtrace_port_getreg(ndx > 0xffffffffu ? 0xffffffffu : (unsigned)ndx, &ok);
		if (!ok) {
			dtrace_dif_fault(mstate, DTRACE_CPUF_ILLOP, (uintptr_t)ndx);
			return 0;
		}
		return r;
	}

	case DIF_VAR_CURTHREAD:
		if (!dif_priv_proc(mstate))
			return 0;
		return dtrace_port_curthread_value(DTRACE_THR_CURTHREAD);

	case DIF_VAR_TIMESTAMP:
		if (!(mstate->dtms_present & DTRACE_MSTATE_TIMESTAMP)) {
			mstate->dtms_timestamp = dtrace_port_gethrtime();
			mstate->dtms_present |= DTRACE_MSTATE_TIMESTAMP;
		}
		return mstate->dtms_timestamp;

	case DIF_VAR_VTIMESTAMP:
		return dtrace_port_curthread_value(DTRACE_THR_VTIME);

	case DIF_VAR_WALLTIMESTAMP:
		if (!(mstate->dtms_present & DTRACE_MSTATE_WALLTIMESTAMP)) {
			mstate->dtms_walltimestamp = dtrace_port_getwalltime();
			mstate->dtms_present |= DTRACE_MSTATE_WALLTIMESTAMP;
		}
		return mstate->dtms_walltimestamp;

	case DIF_VAR_IPL:
		if (!dif_priv_kernel(mstate))
			return 0;
		/* Only ports that know the level report it (Linux host: none). */
		return (mstate->dtms_present & DTRACE_MSTATE_IPL) ? (uint64_t)mstate->dtms_ipl : 0;

	case DIF_VAR_EPID:
		return mstate->dtms_epid;

	case DIF_VAR_ID:
		return probe != NULL ? probe->dtpr_id : 0;

	case DIF_VAR_STACKDEPTH:
		if (!dif_priv_kernel(mstate))
			return 0;
		if (!(mstate->dtms_present & DTRACE_MSTATE_STACKDEPTH)) {
			mstate->dtms_stackdepth =
				dtrace_port_getstackdepth(probe != NULL ? probe->dtpr_aframes : 0);
			mstate->dtms_present |= DTRACE_MSTATE_STACKDEPTH;
		}
		return (uint64_t)mstate->dtms_stackdepth;

	case DIF_VAR_USTACKDEPTH:
		if (!dif_priv_proc(mstate))
			return 0;
		if (!(mstate->dtms_present & DTRACE_MSTATE_USTACKDEPTH)) {
			mstate->dtms_ustackdepth = dtrace_port_getustackdepth();
			mstate->dtms_present |= DTRACE_MSTATE_USTACKDEPTH;
		}
		return (uint64_t)mstate->dtms_ustackdepth;

	case DIF_VAR_CALLER:
		if (!dif_priv_kernel(mstate))
			return 0;
		if (!(mstate->dtms_present & DTRACE_MSTATE_CALLER)) {
			mstate->dtms_caller =
				dtrace_port_caller(probe != NULL ? probe->dtpr_aframes : 0);
			mstate->dtms_present |= DTRACE_MSTATE_CALLER;
		}
		return mstate->dtms_caller;

	case DIF_VAR_UCALLER:
		if (!dif_priv_proc(mstate))
			return 0;
		if (!(mstate->dtms_present & DTRACE_MSTATE_UCALLER)) {
			mstate->dtms_ucaller = dtrace_port_ucaller();
			mstate->dtms_present |= DTRACE_MSTATE_UCALLER;
		}
		return mstate->dtms_ucaller;

	case DIF_VAR_PROBEPROV:
		if (probe == NULL || probe->dtpr_provider == NULL)
			return 0;
		return dif_varstr(mstate, state, probe->dtpr_provider->dtpv_name);
	case DIF_VAR_PROBEMOD:
		return probe != NULL ? dif_varstr(mstate, state, probe->dtpr_mod) : 0;
	case DIF_VAR_PROBEFUNC:
		return probe != NULL ? dif_varstr(mstate, state, probe->dtpr_func) : 0;
	case DIF_VAR_PROBENAME:
		return probe != NULL ? dif_varstr(mstate, state, probe->dtpr_name) : 0;

	case DIF_VAR_PID:
		if (!dif_priv_proc(mstate))
			return 0;
		return dtrace_port_curthread_value(DTRACE_THR_PID);
	case DIF_VAR_PPID:
		if (!dif_priv_proc(mstate))
			return 0;
		return dtrace_port_curthread_value(DTRACE_THR_PPID);
	case DIF_VAR_TID:
		return dtrace_port_curthread_value(DTRACE_THR_TID);
	case DIF_VAR_UID:
		if (!dif_priv_proc(mstate))
			return 0;
		return dtrace_port_curthread_value(DTRACE_THR_UID);
	case DIF_VAR_GID:
		if (!dif_priv_proc(mstate))
			return 0;
		return dtrace_port_curthread_value(DTRACE_THR_GID);
	case DIF_VAR_ERRNO:
		if (!dif_priv_proc(mstate))
			return 0;
		return dtrace_port_curthread_value(DTRACE_THR_ERRNO);
	case DIF_VAR_EXECNAME:
		if (!dif_priv_proc(mstate))
			return 0;
		return dif_varstr(mstate, state, dtrace_port_curthread_execname());
	case DIF_VAR_ZONENAME:
		if (!dif_priv_proc(mstate))
			return 0;
		return dif_varstr(mstate, state, dif_zonename);
	case DIF_VAR_CPU:
		return dtrace_port_curthread_value(DTRACE_THR_HWCPU);

	default:
		dtrace_dif_fault(mstate, DTRACE_CPUF_ILLOP, (uintptr_t)v);
		return 0;
	}
}
