/*
 * kernel/nofault.c: port.h's nofault loads and copies (section 3) for every
 * kernel backend, over isa/'s primitives.
 *
 * The primitives never fault for good: the kernel's trap path, hooked by the
 * port, either resumes them at isa_nofault_pad with {address, code}
 * (FreeBSD, NetBSD) or skips the faulting instruction and records the fault
 * per CPU, which kern_nofault_exit() turns into the same result (illumos).
 * User addresses are checked against the user limit before any load, so a
 * consumer cannot read kernel memory by calling it user memory, and
 * copyinstr only checks where the string starts, since it may end early.
 * Toxic ranges are not refused here (see docs/porting.md).
 */
#include "kernel_port.h"

static bool
kern_user_ok(uintptr_t addr, size_t len)
{
	uintptr_t lim = kern_user_limit();

	return addr < lim && len <= lim - addr;
}

static int
kern_result(const isa_nofault_result_t *r, uintptr_t *fault_addr)
{
	if (r->fault == 0)
		return 0;
	*fault_addr = (uintptr_t)r->value;
	return (int)r->fault;
}

int
dtrace_port_load(int space, uintptr_t addr, size_t size, uint64_t *val, uintptr_t *fault_addr)
{
	isa_nofault_result_t r;
	uintptr_t c;
	int err;

	if (space == DTRACE_AS_USER && !kern_user_ok(addr, size)) {
		*fault_addr = addr;
		return DTRACEFLT_BADADDR;
	}
	c = kern_nofault_enter(space);
	r = isa_nofault_load(addr, size);
	kern_nofault_exit(space, c, &r);
	if ((err = kern_result(&r, fault_addr)) == 0)
		*val = r.value;
	return err;
}

int
dtrace_port_copyin(int space, uintptr_t src, void *dst, size_t len, uintptr_t *fault_addr)
{
	isa_nofault_result_t r;
	uintptr_t c;

	if (space == DTRACE_AS_USER && !kern_user_ok(src, len)) {
		*fault_addr = src;
		return DTRACEFLT_BADADDR;
	}
	c = kern_nofault_enter(space);
	r = isa_nofault_copy(dst, src, len);
	kern_nofault_exit(space, c, &r);
	return kern_result(&r, fault_addr);
}

int
dtrace_port_copyinstr(int space, uintptr_t src, char *dst, size_t len, size_t *copied,
		      uintptr_t *fault_addr)
{
	isa_nofault_result_t r;
	uintptr_t c, lim = kern_user_limit();
	int err;

	*copied = 0;
	if (space == DTRACE_AS_USER) {
		if (src >= lim) {
			*fault_addr = src;
			return DTRACEFLT_BADADDR;
		}
		if (len > lim - src)
			len = lim - src;
	}
	c = kern_nofault_enter(space);
	r = isa_nofault_copystr(dst, src, len);
	kern_nofault_exit(space, c, &r);
	if ((err = kern_result(&r, fault_addr)) == 0)
		*copied = (size_t)r.value;
	return err;
}

int
dtrace_port_copyout(const void *src, uintptr_t dst, size_t len, uintptr_t *fault_addr)
{
	isa_nofault_result_t r;
	uintptr_t c;

	if (!kern_user_ok(dst, len)) {
		*fault_addr = dst;
		return DTRACEFLT_BADADDR;
	}
	c = kern_nofault_enter(DTRACE_AS_USER);
	r = isa_nofault_copy((void *)dst, (uintptr_t)src, len);
	kern_nofault_exit(DTRACE_AS_USER, c, &r);
	return kern_result(&r, fault_addr);
}
