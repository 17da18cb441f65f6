/*
 * kernel/sysprov.h: the OS-neutral half of the `syscall` provider for kernel
 * backends: an entry and a return probe per named system call, their
 * enabling counted, DTrace's stability, the provider's registration.  The
 * OS half names the calls, makes the kernel fire (or stop firing) a probe
 * id at a call's entry or return, and fires from its system-call hook with
 * dtrace_probe(): entry with the call's first five arguments, return with
 * the returned value in arg0 and arg1 (-1 in both for an error), as DTrace
 * does.  Freestanding, like the core: it includes only core/dtrace.h.
 */
#ifndef DTRACE_KERNEL_SYSPROV_H
#define DTRACE_KERNEL_SYSPROV_H

#include "dtrace.h"

typedef struct ksys_ops {
	const char *ks_module; /* the probes' module ("freebsd", ...), or NULL */
	int ks_ncalls;	       /* calls are numbered 0 .. ks_ncalls - 1 */
	/* The call's name, or NULL when it gets no probes (an unused slot). */
	const char *(*ks_name)(int call);
	/* Have the kernel fire id at the call's entry (ret false) or return
	 * (ret true); id 0 stops it.  Not probe context. */
	void (*ks_set)(int call, bool ret, dtrace_id_t id);
	/* Called with true as the first probe is enabled and false as the last
	 * is disabled (a global "tracing on" switch); may be NULL. */
	void (*ks_active)(bool on);
} ksys_ops_t;

/* Register "syscall" over the OS half's operations (kept by pointer). */
int ksys_register(const ksys_ops_t *ops);
/* Unregister; DTRACE_EBUSY while consumers are open, and then no call is
 * left set. */
int ksys_unregister(void);

#endif /* DTRACE_KERNEL_SYSPROV_H */
