/*
 * kernel/kclock.h: gethrtime and the wall clock from a free-running
 * processor counter (the TSC, CNTVCT, the riscv time CSR), for a kernel
 * whose own clock functions cannot be called in probe context (they loop
 * on a generation a probe inside the clock update would see change
 * forever).  The scale and offsets are fixed once at load; reading is a
 * subtraction and a 64x64 multiply, no lock.  Freestanding, like the core:
 * it includes only core/dtrace.h.
 */
#ifndef DTRACE_KERNEL_KCLOCK_H
#define DTRACE_KERNEL_KCLOCK_H

#include "dtrace.h"

typedef struct kclock {
	uint64_t kc_count0; /* the counter at load */
	uint64_t kc_ns0;    /* uptime in ns at load */
	uint64_t kc_mult;   /* ns per count, 32.32 fixed point */
	uint64_t kc_wall0;  /* wall clock minus hrtime, ns */
} kclock_t;

/* Fix kc from the counter's frequency (counts per second) and, read
 * together now, the counter, the uptime and the wall clock in ns.  false
 * for a frequency of 0 or one above 1 GHz * 2^32. */
bool kclock_set(kclock_t *kc, uint64_t freq, uint64_t count, uint64_t uptime_ns,
		uint64_t wall_ns);
/* A frequency measured over an interval: dcount counts in dns ns (0 when
 * either is 0 or dcount is above 2^64 / 10^9). */
uint64_t kclock_calibrate(uint64_t dcount, uint64_t dns);
/* Uptime in ns, and wall-clock time in ns since the epoch, at `count`. */
uint64_t kclock_hrtime(const kclock_t *kc, uint64_t count);
uint64_t kclock_walltime(const kclock_t *kc, uint64_t count);
/* Seconds in 32.32 fixed point (FreeBSD's sbintime_t) as ns. */
uint64_t kclock_q32_ns(uint64_t q32);

#endif /* DTRACE_KERNEL_KCLOCK_H */
