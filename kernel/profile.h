/*
 * kernel/profile.h: the OS-neutral half of the profile provider for kernel
 * backends: probe names, probe creation, the "late" argument, the
 * provider's registration.  The OS half starts and stops a timer per probe
 * (an interrupt on every CPU for profile-N, on one CPU for tick-N) and calls
 * kprof_fire() from it.  Freestanding, like the core: it includes only
 * core/dtrace.h.
 */
#ifndef DTRACE_KERNEL_PROFILE_H
#define DTRACE_KERNEL_PROFILE_H

#include "dtrace.h"

#define KPROF_PROFILE 0 /* fires on every CPU */
#define KPROF_TICK 1	/* fires on one CPU */

typedef struct kprof {
	dtrace_id_t kp_id;
	int kp_kind;	      /* KPROF_* */
	uint64_t kp_interval; /* ns */
	void *kp_os;	      /* the OS half's timer state */
	uint64_t *kp_expected; /* per CPU: when the next firing is due (profile-N) */
} kprof_t;

typedef struct kprof_ops {
	/* Arm kp's timer(s); 0 or an errno value.  Not probe context. */
	int (*ko_start)(kprof_t *kp);
	/* Disarm and wait for firings in progress.  Not probe context. */
	void (*ko_stop)(kprof_t *kp);
	/* Frames between the timer interrupt and dtrace_probe(). */
	int ko_aframes;
} kprof_ops_t;

/* Register "profile" with the OS half's operations (kept by pointer). */
int kprof_register(const kprof_ops_t *ops);
/* Unregister; DTRACE_EBUSY while consumers are open. */
int kprof_unregister(void);

/* Fire kp on this CPU: pc is the interrupted kernel PC or 0, upc the
 * interrupted user PC or 0.  Probe context: called from the OS's timer
 * interrupt. */
void kprof_fire(kprof_t *kp, dtrace_cpuid_t cpu, uint64_t pc, uint64_t upc);

/* "profile-97", "tick-1sec", ...: the kind and interval, or false.  As in
 * DTrace, nothing faster than 5000 Hz (200 us) is offered. */
bool kprof_parse(const char *name, int *kind, uint64_t *interval_ns);

#endif /* DTRACE_KERNEL_PROFILE_H */
