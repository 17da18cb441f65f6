/*
 * port/netbsd/md_rump.c: trap glue for the rump kernel build.
 *
 * A rump kernel has no trap(): a fault in kernel code is a signal to the
 * host process (../shared/rump/README.md).  So the fault route is the
 * host's: the program that boots the rump kernel (rump/rump_host.c)
 * installs a SIGSEGV/SIGBUS handler that calls dtrace_rump_fault() below
 * with the faulting PC and address, and on a non-zero return stores the
 * address and the code in the nofault result registers and resumes at the
 * landing pad, exactly as the amd64 dtrace_trap_func hook does with a
 * trap frame.  Kernel text is the host's read-only library text and the
 * build has no KDTRACE_HOOKS: there is no breakpoint route, no text
 * patching, no user registers and no SDT link sets.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/systm.h>

#include "netbsd_impl.h"

bool dtnb_fault_ready;

/* Called by the host's signal handler on the faulting thread. */
int dtrace_rump_fault(uintptr_t pc, uintptr_t *addr, uintptr_t *resume);

int
dtrace_rump_fault(uintptr_t pc, uintptr_t *addr, uintptr_t *resume)
{
	return dtnb_fault(pc, addr, resume);
}

bool
dtnb_user_regs(isa_regs_t *regs)
{
	(void)regs;
	return false;
}

bool
dtnb_space_ok(int space, uintptr_t addr, size_t size)
{
	/* One host address space; the first page is never mapped. */
	(void)space;
	(void)size;
	return addr >= 4096;
}

int
dtnb_trap_install(void)
{
	dtnb_fault_ready = true;
	return 0;
}

void
dtnb_trap_uninstall(void)
{
	dtnb_fault_ready = false;
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
