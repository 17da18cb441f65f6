/*
 * kernel/kpost.h: raise() and stop() posted from probe context for later
 * delivery (port.h §9).  Sending a signal takes the kernel's process
 * locks, which probe context may not, so the probe only records the
 * signal and the process in its CPU's slot (one pending per CPU, a later
 * one replacing it, as DTrace keeps one per thread) and the port delivers
 * it from a context that may lock (FreeBSD a callout, NetBSD a soft
 * interrupt).  Put runs on the slot's own CPU in probe context; take may
 * run anywhere: pid and signal are one word, stored and taken (swapped
 * with 0) whole, so a signal is delivered once and to its own process.
 * Freestanding, like the core.
 */
#ifndef DTRACE_KERNEL_KPOST_H
#define DTRACE_KERNEL_KPOST_H

#include "dtrace.h"

typedef struct kpost {
	uint64_t kp_word; /* pid << 32 | signal; 0: nothing pending */
} kpost_t;

void kpost_put(kpost_t *kp, uint32_t pid, int sig);
/* What was pending, cleared: 0 if nothing, else kpost_pid() and
 * kpost_sig() of it. */
uint64_t kpost_take(kpost_t *kp);

static inline uint32_t
kpost_pid(uint64_t taken)
{
	return (uint32_t)(taken >> 32);
}

static inline int
kpost_sig(uint64_t taken)
{
	return (int)(uint32_t)taken;
}

#endif /* DTRACE_KERNEL_KPOST_H */
