/*
 * port/illumos/prov_syscall.c: the syscall provider's illumos half, through
 * the system call table; kernel/sysprov.c owns the probes.
 *
 * Each native system call (sysent[], named by syscallnames[]) has an entry
 * and a return probe.  While either is enabled, the call's sy_callc is
 * replaced by ill_sc_call, which finds the call from curthread->t_sysnum,
 * fires entry with the first five arguments, calls the original handler,
 * and fires return with its value (arg0 and arg1, as DTrace) unless the
 * call failed, when both are -1.  The original handler is put back at
 * unload (a thread may be inside the wrapper until then).  32-bit processes
 * (sysent32[]) are not covered yet.
 */
#include "illumos_impl.h"
#include "sysprov.h"

#include <sys/klwp.h>

static struct ill_sc {
	int64_t (*sc_orig)();	  /* the table's handler while we replace it */
	dtrace_id_t sc_entry;	  /* enabled probe ids, 0 when not */
	dtrace_id_t sc_return;
} ill_sc[NSYSCALL];

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

static const char *
ill_sc_name(int n)
{
	if (n == 0 || syscallnames == NULL || sysent[n].sy_callc == NULL)
		return NULL;
	return syscallnames[n];
}

static void
ill_sc_set(int n, bool ret, dtrace_id_t id)
{
	struct ill_sc *sc = &ill_sc[n];

	if (sc->sc_orig == NULL) {
		sc->sc_orig = sysent[n].sy_callc;
		membar_producer();
		sysent[n].sy_callc = ill_sc_call;
	}
	if (ret)
		sc->sc_return = id;
	else
		sc->sc_entry = id;
}

static const ksys_ops_t ill_sc_ops = {NULL, NSYSCALL, ill_sc_name, ill_sc_set, NULL};

int
ill_syscall_init(void)
{
	return ksys_register(&ill_sc_ops);
}

/* Unregistering fails while consumers are open; then nothing is enabled and
 * the table gets its handlers back.  A thread still inside the wrapper
 * keeps running its code: the wrapper must outlive it, which detach cannot
 * know; DTrace's systrace has the same window. */
int
ill_syscall_fini(void)
{
	int err;

	if ((err = ksys_unregister()) != 0)
		return err;
	for (int n = 0; n < NSYSCALL; n++) {
		if (ill_sc[n].sc_orig != NULL) {
			sysent[n].sy_callc = ill_sc[n].sc_orig;
			ill_sc[n].sc_orig = NULL;
		}
	}
	return 0;
}
