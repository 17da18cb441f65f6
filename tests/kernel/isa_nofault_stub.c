/*
 * tests/kernel/isa_nofault_stub.c: the nofault primitives for an ISA module
 * built on another processor (the aarch64 and riscv builds of
 * test_kernel_instprov.c).  Its stepper links against them; these tests
 * never step a foreign instruction, so every load reports a fault.
 */
#include "isa.h"

static isa_nofault_result_t
stub_fault(uintptr_t addr)
{
	isa_nofault_result_t r = {addr, 1};

	return r;
}

isa_nofault_result_t
isa_nofault_load8(uintptr_t addr)
{
	return stub_fault(addr);
}

isa_nofault_result_t
isa_nofault_load16(uintptr_t addr)
{
	return stub_fault(addr);
}

isa_nofault_result_t
isa_nofault_load32(uintptr_t addr)
{
	return stub_fault(addr);
}

isa_nofault_result_t
isa_nofault_load64(uintptr_t addr)
{
	return stub_fault(addr);
}

isa_nofault_result_t
isa_nofault_copy(void *dst, uintptr_t src, size_t len)
{
	(void)dst;
	(void)len;
	return stub_fault(src);
}

isa_nofault_result_t
isa_nofault_copystr(char *dst, uintptr_t src, size_t len)
{
	(void)dst;
	(void)len;
	return stub_fault(src);
}

const char isa_nofault_begin[1], isa_nofault_end[1], isa_nofault_pad[1];
