/*
 * port/netbsd/md_rump.c: trap glue for the rump kernel build.
 *
 * A rump kernel has no trap(): a fault in kernel code is a signal to the
 * host process (../shared/rump/README.md).  So the fault route is the
 * host's: the program that boots the rump kernel (rump/rump_host.c)
 * installs a SIGSEGV/SIGBUS handler that calls dtrace_rump_fault() below
 * with the faulting PC, and on a non-zero return stores the fault address
 * and the code in the nofault result registers and resumes at the landing
 * pad, exactly as the amd64 dtrace_trap_func hook does with a trap frame.  Kernel text is the host's read-only library text and the
 * build has no KDTRACE_HOOKS: there is no breakpoint route, no text
 * patching, no user registers and no SDT link sets.
 *
 * Time comes from the host (the rumpuser_clock_gettime hypercall) rather
 * than from the kernel's timecounter, which in a rump kernel counts the
 * clock thread's ticks: 10 ms steps, and none at all while a probe holds
 * the CPU the clock thread runs on (chill() would spin for ever).
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>
#include <rump/rumpuser.h>

#include "netbsd_impl.h"

static uint64_t
dtnb_host_clock(int which)
{
	int64_t sec = 0;
	long nsec = 0;

	(void)rumpuser_clock_gettime(which, &sec, &nsec);
	return (uint64_t)sec * 1000000000ULL + (uint64_t)nsec;
}

uint64_t
dtrace_port_gethrtime(void)
{
	return dtnb_host_clock(RUMPUSER_CLOCK_ABSMONO);
}

uint64_t
dtrace_port_getwalltime(void)
{
	return dtnb_host_clock(RUMPUSER_CLOCK_RELWALL);
}

/* Called by the host's signal handler on the faulting thread. */
int dtrace_rump_fault(uintptr_t pc, uintptr_t *resume);

int
dtrace_rump_fault(uintptr_t pc, uintptr_t *resume)
{
	return dtnb_fault(pc, resume);
}

bool
kern_user_regs(isa_regs_t *regs)
{
	(void)regs;
	return false;
}

/* The "user" memory of the rump kernel's local process is the host
 * process's own: any address. */
uintptr_t
kern_user_limit(void)
{
	return UINTPTR_MAX;
}

const bool dtnb_md_breakpoints = false; /* no trap(): fbt and kinst are not registered */
const size_t dtnb_md_bp_gap = 0;

int
dtnb_trap_install(void)
{
	return 0;
}

int
dtnb_trap_uninstall(void)
{
	return 0;
}

int
dtrace_port_text_write(void *as, uintptr_t addr, const void *bytes, size_t len)
{
	(void)as;
	(void)addr;
	(void)bytes;
	(void)len;
	return DTRACE_ENOTSUP;
}

int
dtnb_sdt_init(void)
{
	return 0;
}

int
dtnb_sdt_fini(void)
{
	return 0;
}
