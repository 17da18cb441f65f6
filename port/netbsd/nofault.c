/*
 * port/netbsd/nofault.c: loads and copies that never fault (port.h §3).
 *
 * Every access goes through the ISA's nofault primitives (isa/<isa>/
 * nofault.S) with this CPU's dc_nofault flag up.  A fault inside them
 * reaches dtnb_fault() (from the kernel's dtrace_trap_func on amd64, from
 * the host's SIGSEGV handler in a rump kernel), which sends the primitive to
 * its landing pad with the fault address and DTRACEFLT_BADADDR.
 *
 * Before any access the address is checked against the space asked for
 * (dtnb_space_ok: a user address must lie below the user limit, a kernel
 * one in the kernel's half).  On a build whose kernel offers no fault hook
 * (dtnb_fault_ready false: NetBSD 7.99 aarch64) every access is refused
 * with BADADDR: a probe must never panic the machine.
 *
 * Kernel and user share one address space on the NetBSD 7.99 ports built
 * here (no SMAP on amd64, a single TTBR walk per address on aarch64), so a
 * user address is read directly, as NetBSD's DTrace does with
 * dtrace_fuword*.
 */
#include <sys/param.h>
#include <sys/types.h>

#include "netbsd_impl.h"

int
dtnb_fault(uintptr_t pc, uintptr_t *addr, uintptr_t *resume)
{
	dtnb_cpu_t *dc;

	if (dtnb_cpus == NULL || !isa_nofault_contains(pc))
		return 0;
	dc = dtnb_curcpu();
	if (!dc->dc_nofault)
		return 0;
	/* A fault without an address (x86 #GP: a non-canonical one) is
	 * reported at the address the primitive was given. */
	if (*addr == 0)
		*addr = dc->dc_nfaddr;
	*resume = (uintptr_t)isa_nofault_pad;
	return DTRACEFLT_BADADDR;
}

/* Run one primitive with the flag up; the result carries any fault. */
static int
dtnb_nofault_done(dtnb_cpu_t *dc, isa_nofault_result_t r, uintptr_t *fault_addr)
{
	dc->dc_nofault = 0;
	if (r.fault != 0) {
		*fault_addr = (uintptr_t)r.value;
		return (int)r.fault;
	}
	return 0;
}

static bool
dtnb_nofault_begin(int space, uintptr_t addr, size_t len, uintptr_t *fault_addr,
		   dtnb_cpu_t **dcp)
{
	if (!dtnb_fault_ready || addr + len < addr || !dtnb_space_ok(space, addr, len)) {
		*fault_addr = addr;
		return false;
	}
	*dcp = dtnb_curcpu();
	(*dcp)->dc_nfaddr = addr;
	(*dcp)->dc_nofault = 1;
	return true;
}

int
dtrace_port_load(int space, uintptr_t addr, size_t size, uint64_t *val, uintptr_t *fault_addr)
{
	isa_nofault_result_t r;
	dtnb_cpu_t *dc;
	int err;

	if (!dtnb_nofault_begin(space, addr, size, fault_addr, &dc))
		return DTRACEFLT_BADADDR;
	switch (size) {
	case 1:
		r = isa_nofault_load8(addr);
		break;
	case 2:
		r = isa_nofault_load16(addr);
		break;
	case 4:
		r = isa_nofault_load32(addr);
		break;
	default:
		r = isa_nofault_load64(addr);
		break;
	}
	if ((err = dtnb_nofault_done(dc, r, fault_addr)) == 0)
		*val = r.value;
	return err;
}

int
dtrace_port_copyin(int space, uintptr_t src, void *dst, size_t len, uintptr_t *fault_addr)
{
	dtnb_cpu_t *dc;

	if (len == 0)
		return 0;
	if (!dtnb_nofault_begin(space, src, len, fault_addr, &dc))
		return DTRACEFLT_BADADDR;
	return dtnb_nofault_done(dc, isa_nofault_copy(dst, src, len), fault_addr);
}

int
dtrace_port_copyinstr(int space, uintptr_t src, char *dst, size_t len, size_t *copied,
		      uintptr_t *fault_addr)
{
	isa_nofault_result_t r;
	dtnb_cpu_t *dc;
	int err;

	*copied = 0;
	if (len == 0)
		return 0;
	/* Only the first byte must be of the space; a string running past
	 * the limit faults there like any other bad address. */
	if (!dtnb_nofault_begin(space, src, 1, fault_addr, &dc))
		return DTRACEFLT_BADADDR;
	r = isa_nofault_copystr(dst, src, len);
	if ((err = dtnb_nofault_done(dc, r, fault_addr)) == 0)
		*copied = (size_t)r.value;
	return err;
}

int
dtrace_port_copyout(const void *src, uintptr_t dst, size_t len, uintptr_t *fault_addr)
{
	dtnb_cpu_t *dc;

	if (len == 0)
		return 0;
	if (!dtnb_nofault_begin(DTRACE_AS_USER, dst, len, fault_addr, &dc))
		return DTRACEFLT_BADADDR;
	return dtnb_nofault_done(dc, isa_nofault_copy((void *)dst, (uintptr_t)src, len),
				 fault_addr);
}
