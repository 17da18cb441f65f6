/*
 * kernel/ktimer.h: the schedule of a periodic timer (port.h §11) that a
 * kernel runs in a thread of its own.  The kernels' timers are threads, not
 * callouts, because the core's timer functions sleep (the cleaner's
 * cross-call waits); what the thread does between its sleeps is the same
 * everywhere and is here: deadlines on dtrace_port_gethrtime, every call
 * that fell due made in order (an interval shorter than the kernel's sleep
 * granularity is kept, in bursts), at most KTIMER_BURST calls in a row,
 * past which the timer skips ahead rather than run a backlog.  The port
 * keeps the thread, its sleep and its stop flag.  Not probe context;
 * freestanding, like the core.
 */
#ifndef DTRACE_KERNEL_KTIMER_H
#define DTRACE_KERNEL_KTIMER_H

#include "dtrace.h"

#define KTIMER_BURST 100

typedef struct ktimer {
	uint64_t kt_interval; /* ns, at least 1 */
	uint64_t kt_next;     /* the next deadline */
	void (*kt_fn)(void *);
	void *kt_arg;
} ktimer_t;

/* The first deadline one interval from now (0 ns is taken as 1). */
void ktimer_init(ktimer_t *kt, uint64_t interval_ns, void (*fn)(void *), void *arg);

/* Make the calls due by now; return how many ns to sleep until the next
 * deadline (at least 1). */
uint64_t ktimer_run(ktimer_t *kt);

#endif /* DTRACE_KERNEL_KTIMER_H */
