/*
 * kernel/kmodule.h: a kernel backend's load and unload as a list of steps
 * (locks, clock, trap hooks, the core, providers, devices, ...), each with
 * its undo.  Load runs them in order and, when one fails, undoes those
 * done, last first.  Unload undoes them last first and, when one refuses
 * (a consumer still open, a provider still busy), redoes those it already
 * undid, so a refused unload leaves the module as it was.  Freestanding,
 * like the core: it includes only core/dtrace.h.
 */
#ifndef DTRACE_KERNEL_KMODULE_H
#define DTRACE_KERNEL_KMODULE_H

#include "dtrace.h"

typedef struct kmod_step {
	int (*km_up)(void);   /* 0, or an error: load stops; NULL: nothing to do */
	int (*km_down)(void); /* 0, or an error: unload stops; NULL: nothing to do */
} kmod_step_t;

/* Run steps[0 .. n) in order; on an error undo those done and return it. */
int kmod_up(const kmod_step_t *steps, size_t n);
/* Undo steps[n - 1 .. 0]; on an error redo those undone and return it. */
int kmod_down(const kmod_step_t *steps, size_t n);

#endif /* DTRACE_KERNEL_KMODULE_H */
