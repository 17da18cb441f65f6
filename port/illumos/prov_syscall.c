/*
 * port/illumos/prov_syscall.c: the syscall provider through the system call
 * table.
 *
 * Each native system call (sysent[], named by syscallnames[]) has an entry
 * and a return probe.  While either is enabled, the call's sy_callc is
 * replaced by ill_sc_call, which finds the call from curthread->t_sysnum,
 * fires entry with the first five arguments, calls the original handler,
 * and fires return with its value (arg0 and arg1, as DTrace) unless the
 * call failed, when both are -1.  The original handler is put back when
 * neither probe is enabled and at unload.  32-bit processes (sysent32[])
 * are not covered yet.
 */
#include "illumos_impl.h"

#include <sys/klwp.h>

static dtrace_provider_id_t ill_sc_id;

static struct ill_sc {
	int64_t (*sc_orig)();	  /* the table's handler while we replace it */
	dtrace_id_t sc_entry;	  /* enabled probe ids, 0 when not */
	dtrace_id_t sc_return;
} ill_sc[NSYSCALL];

#define ILL_SC_ARG(n, ret) ((void *)(uintptr_t)(((n) << 1) | (ret)))
#define ILL_SC_NUM(a) ((int)((uintptr_t)(a) >> 1))
#define ILL_SC_RET(a) ((int)((uintptr_t)(a) & 1))

static int64_t
ill_sc_call(uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3, uintptr_t a4, uintptr_t a5,
	    uintptr_t a6, uintptr_t a7)
{
	int n = curthread->t_sysnum;
	struct ill_sc *sc = &ill_sc[n < 0 || n >= NSYSCALL ? 0 : n];
	klwp_t *lwp = ttolwp(curthread);
	int64_t rv;

	if (sc->sc_entry != 0)
		dtrace_probe(sc->sc_entry, a0, a1, a2, a3, a4);
	rv = (*sc->sc_orig)(a0, a1, a2, a3, a4, a5, a6, a7);
	if (sc->sc_return != 0) {
		int64_t r = lwp != NULL && lwp->lwp_errno != 0 ? -1 : rv;

		dtrace_probe(sc->sc_return, (uint64_t)r, (uint64_t)r, 0, 0, 0);
	}
	return rv;
}

static void
ill_sc_provide(void *parg, const dtrace_probedesc_t *desc)
{
	(void)parg;
	(void)desc;
	for (int n = 1; n < NSYSCALL; n++) {
		const char *name = syscallnames != NULL ? syscallnames[n] : NULL;

		if (name == NULL || name[0] == '\0' || sysent[n].sy_callc == NULL ||
		    dtrace_probe_lookup(ill_sc_id, NULL, name, "entry") != 0)
			continue;
		dtrace_probe_create(ill_sc_id, NULL, name, "entry", 1, ILL_SC_ARG(n, 0));
		dtrace_probe_create(ill_sc_id, NULL, name, "return", 1, ILL_SC_ARG(n, 1));
	}
}

static int
ill_sc_enable(void *parg, dtrace_id_t id, void *parg_probe)
{
	struct ill_sc *sc = &ill_sc[ILL_SC_NUM(parg_probe)];

	(void)parg;
	if (sc->sc_orig == NULL) {
		sc->sc_orig = sysent[ILL_SC_NUM(parg_probe)].sy_callc;
		membar_producer();
		sysent[ILL_SC_NUM(parg_probe)].sy_callc = ill_sc_call;
	}
	if (ILL_SC_RET(parg_probe))
		sc->sc_return = id;
	else
		sc->sc_entry = id;
	return 0;
}

static void
ill_sc_disable(void *parg, dtrace_id_t id, void *parg_probe)
{
	struct ill_sc *sc = &ill_sc[ILL_SC_NUM(parg_probe)];

	(void)parg;
	(void)id;
	if (ILL_SC_RET(parg_probe))
		sc->sc_return = 0;
	else
		sc->sc_entry = 0;
	/* the wrapper stays until unload: a thread may be inside it */
}

static void
ill_sc_destroy(void *parg, dtrace_id_t id, void *parg_probe)
{
	(void)parg;
	(void)id;
	(void)parg_probe;
}

static const dtrace_pops_t ill_sc_pops = {
	.dtps_provide = ill_sc_provide,
	.dtps_enable = ill_sc_enable,
	.dtps_disable = ill_sc_disable,
	.dtps_destroy = ill_sc_destroy,
};

static const dtrace_pattr_t ill_sc_attr = {
	.dtpa_provider = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING,
			  DTRACE_CLASS_COMMON},
	.dtpa_mod = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
	.dtpa_func = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
	.dtpa_name = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
	.dtpa_args = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
};

int
ill_syscall_init(void)
{
	return dtrace_register("syscall", &ill_sc_attr, DTRACE_PRIV_USER, &ill_sc_pops, NULL,
			       &ill_sc_id);
}

/* Unregistering fails while consumers are open; then nothing is enabled and
 * the table gets its handlers back.  A thread still inside the wrapper
 * keeps running its code: the wrapper must outlive it, which detach cannot
 * know; DTrace's systrace has the same window. */
int
ill_syscall_fini(void)
{
	int err;

	if ((err = dtrace_unregister(ill_sc_id)) != 0)
		return err;
	for (int n = 0; n < NSYSCALL; n++) {
		if (ill_sc[n].sc_orig != NULL) {
			sysent[n].sy_callc = ill_sc[n].sc_orig;
			ill_sc[n].sc_orig = NULL;
		}
	}
	return 0;
}
