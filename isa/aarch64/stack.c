/*
 * isa/aarch64/stack.c: frame-pointer stack walk on AArch64.
 *
 * AAPCS64 frame records: x29 points at {caller's x29, return address x30}.
 * Every load is nofault; the walk is bounded by `max` and requires frames
 * to move toward the stack base.  Probe context: yes.
 */
#include "isa.h"

#define FRAME_RA_OFFSET 8

uint64_t
isa_frame_return_address(uintptr_t fp)
{
	isa_nofault_result_t r;

	if (fp == 0 || (fp & 7) != 0)
		return 0;
	r = isa_nofault_load64(fp + FRAME_RA_OFFSET);
	return r.fault ? 0 : r.value;
}

uintptr_t
isa_frame_caller_fp(uintptr_t fp)
{
	isa_nofault_result_t r;

	if (fp == 0 || (fp & 7) != 0)
		return 0;
	r = isa_nofault_load64(fp);
	return r.fault ? 0 : (uintptr_t)r.value;
}

int
isa_fp_walk(uintptr_t fp, uint64_t *pcs, int max)
{
	isa_nofault_result_t next, ra;
	int n = 0;

	while (n < max && fp != 0 && (fp & 7) == 0) {
		ra = isa_nofault_load64(fp + FRAME_RA_OFFSET);
		if (ra.fault || ra.value == 0)
			break;
		if (pcs != NULL)
			pcs[n] = ra.value;
		n++;
		next = isa_nofault_load64(fp);
		if (next.fault || next.value <= fp)
			break;
		fp = next.value;
	}
	return n;
}
