/*
 * tests/isa/fake_memory.h: the nofault primitives over a fake address
 * space, for running another processor's isa/<isa>/insn.c on this machine.
 *
 * The tests build that file for the host with the other ISA's headers, so
 * its isa_nofault_* calls land here instead of in the ISA's nofault.S:
 * addresses in [FAKE_LO, FAKE_LO + FAKE_SIZE) are the bytes of fake_mem[];
 * any other address below 4 GiB is unmapped (the call reports a fault at
 * the first such byte); addresses at or above 4 GiB are the test's own
 * memory (the stepper copies from its stack variables), which on x86_64
 * Linux is where every stack, heap and PIE image lives.  Include it once.
 */
#ifndef DTRACE_TESTS_ISA_FAKE_MEMORY_H
#define DTRACE_TESTS_ISA_FAKE_MEMORY_H

#include <stdint.h>
#include <string.h>

#include "isa.h"

#define FAKE_LO 0x10000000u
#define FAKE_SIZE 0x10000u
#define FAKE_HOST 0x100000000ull

static uint8_t fake_mem[FAKE_SIZE];
static unsigned fake_faults; /* faults reported */

/* The host pointer for [addr, addr + 1), or NULL if unmapped. */
static uint8_t *
fake_byte(uintptr_t addr)
{
	if (addr >= FAKE_HOST)
		return (uint8_t *)addr;
	if (addr >= FAKE_LO && addr - FAKE_LO < FAKE_SIZE)
		return &fake_mem[addr - FAKE_LO];
	return NULL;
}

static isa_nofault_result_t
fake_load(uintptr_t addr, size_t n)
{
	isa_nofault_result_t r = {0, 0};
	size_t i;

	for (i = 0; i < n; i++) {
		uint8_t *p = fake_byte(addr + i);

		if (p == NULL) {
			fake_faults++;
			r.value = addr + i;
			r.fault = 1;
			return r;
		}
		r.value |= (uint64_t)*p << (8 * i);
	}
	return r;
}

isa_nofault_result_t
isa_nofault_load8(uintptr_t addr)
{
	return fake_load(addr, 1);
}

isa_nofault_result_t
isa_nofault_load16(uintptr_t addr)
{
	return fake_load(addr, 2);
}

isa_nofault_result_t
isa_nofault_load32(uintptr_t addr)
{
	return fake_load(addr, 4);
}

isa_nofault_result_t
isa_nofault_load64(uintptr_t addr)
{
	return fake_load(addr, 8);
}

isa_nofault_result_t
isa_nofault_copy(void *dst, uintptr_t src, size_t len)
{
	isa_nofault_result_t r = {len, 0};
	size_t i;

	for (i = 0; i < len; i++) {
		uint8_t *s = fake_byte(src + i), *d = fake_byte((uintptr_t)dst + i);

		if (s == NULL || d == NULL) {
			fake_faults++;
			r.value = s == NULL ? src + i : (uintptr_t)dst + i;
			r.fault = 1;
			return r;
		}
		*d = *s;
	}
	return r;
}

isa_nofault_result_t
isa_nofault_copystr(char *dst, uintptr_t src, size_t len)
{
	isa_nofault_result_t r = {0, 0};
	size_t i;

	for (i = 0; i < len; i++) {
		isa_nofault_result_t b = fake_load(src + i, 1);

		if (b.fault != 0)
			return b;
		dst[i] = (char)b.value;
		if (b.value == 0) {
			i++;
			break;
		}
	}
	r.value = i;
	return r;
}

static inline uint64_t
fake_get64(uintptr_t addr)
{
	uint64_t v;

	memcpy(&v, &fake_mem[addr - FAKE_LO], 8);
	return v;
}

static inline void
fake_put64(uintptr_t addr, uint64_t v)
{
	memcpy(&fake_mem[addr - FAKE_LO], &v, 8);
}

#endif
