/*
 * port/linux/nofault.c: nofault loads and copies (port.h section 3).
 *
 * Thin wrappers over the ISA primitives; trap.c's SIGSEGV/SIGBUS handler
 * resumes a faulting primitive at the ISA's landing pad.  The kernel and
 * user address spaces of port.h are the same mapping here.  The address
 * reported on a fault is the kernel's si_addr when it lies in the range
 * asked for, otherwise the start of the range (x86 reports 0 for
 * non-canonical addresses).  Probe context: yes.
 */
#include "dtrace_abi.h"
#include "linux_impl.h"

static int
fault_code(uint64_t code)
{
	return code == LINUX_NOFAULT_BADALIGN ? DTRACEFLT_BADALIGN : DTRACEFLT_BADADDR;
}

static uintptr_t
fault_address(uint64_t reported, uintptr_t start, size_t len)
{
	if (reported >= start && reported - start < (len == 0 ? 1 : len))
		return (uintptr_t)reported;
	return start;
}

int
dtrace_port_load(int space, uintptr_t addr, size_t size, uint64_t *val, uintptr_t *fault_addr)
{
	isa_nofault_result_t r;

	(void)space;
	if (size != 1 && size != 2 && size != 4 && size != 8) {
		*fault_addr = addr;
		return DTRACEFLT_ILLOP;
	}
	r = isa_nofault_load(addr, size);
	if (r.fault != 0) {
		*fault_addr = fault_address(r.value, addr, size);
		return fault_code(r.fault);
	}
	*val = r.value;
	return 0;
}

int
dtrace_port_copyin(int space, uintptr_t src, void *dst, size_t len, uintptr_t *fault_addr)
{
	isa_nofault_result_t r;

	(void)space;
	if (len == 0)
		return 0;
	r = isa_nofault_copy(dst, src, len);
	if (r.fault != 0) {
		*fault_addr = fault_address(r.value, src, len);
		return fault_code(r.fault);
	}
	return 0;
}

int
dtrace_port_copyinstr(int space, uintptr_t src, char *dst, size_t len, size_t *copied,
		      uintptr_t *fault_addr)
{
	isa_nofault_result_t r;

	(void)space;
	*copied = 0;
	if (len == 0)
		return 0;
	r = isa_nofault_copystr(dst, src, len);
	if (r.fault != 0) {
		*fault_addr = fault_address(r.value, src, len);
		return fault_code(r.fault);
	}
	*copied = (size_t)r.value;
	return 0;
}

int
dtrace_port_copyout(const void *src, uintptr_t dst, size_t len, uintptr_t *fault_addr)
{
	isa_nofault_result_t r;

	if (len == 0)
		return 0;
	r = isa_nofault_copy((void *)dst, (uintptr_t)src, len);
	if (r.fault != 0) {
		*fault_addr = fault_address(r.value, dst, len);
		return fault_code(r.fault);
	}
	return 0;
}
