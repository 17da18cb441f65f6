/*
 * port/netbsd/clock.c: time (port.h §6) in a NetBSD kernel.
 *
 * The kernel's timecounter: nanouptime() for `timestamp`, nanotime() for
 * `walltimestamp`.  Both read the current timehands lock-free (the
 * generation check of kern_tc.c), so they are safe at any IPL.  NetBSD's own
 * DTrace reads the TSC on amd64; the timecounter costs a little more and
 * needs no per-CPU skew table.  (A rump kernel's timecounter counts clock
 * ticks, so md_rump.c asks the host instead.)
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <sys/time.h>
#include <sys/timevar.h>

#include "netbsd_impl.h"

uint64_t
dtrace_port_gethrtime(void)
{
	struct timespec ts;

	nanouptime(&ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t
dtrace_port_getwalltime(void)
{
	struct timespec ts;

	nanotime(&ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
