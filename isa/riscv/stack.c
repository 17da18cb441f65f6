/*
 * isa/riscv/stack.c: frame-pointer stack walk on RISC-V.
 *
 * With frame pointers, s0 holds the stack pointer at function entry; the
 * return address is saved just below it (s0 - 8) and the caller's s0 below
 * that (s0 - 16).  A leaf that saves no ra breaks this for its own frame
 * only; the walk checks every step (nofault loads, frames moving toward
 * the stack base, bounded by `max`).  Probe context: yes.
 */
#include "isa.h"

#define FRAME_RA_OFFSET 8  /* below the frame pointer */
#define FRAME_FP_OFFSET 16 /* below the frame pointer */

uint64_t
isa_frame_return_address(uintptr_t fp)
{
	isa_nofault_result_t r;

	if (fp < FRAME_FP_OFFSET || (fp & 7) != 0)
		return 0;
	r = isa_nofault_load64(fp - FRAME_RA_OFFSET);
	return r.fault ? 0 : r.value;
}

uintptr_t
isa_frame_caller_fp(uintptr_t fp)
{
	isa_nofault_result_t r;

	if (fp < FRAME_FP_OFFSET || (fp & 7) != 0)
		return 0;
	r = isa_nofault_load64(fp - FRAME_FP_OFFSET);
	return r.fault ? 0 : (uintptr_t)r.value;
}

int
isa_fp_walk(uintptr_t fp, uint64_t *pcs, int max)
{
	isa_nofault_result_t next, ra;
	int n = 0;

	while (n < max && fp >= FRAME_FP_OFFSET && (fp & 7) == 0) {
		ra = isa_nofault_load64(fp - FRAME_RA_OFFSET);
		if (ra.fault || ra.value == 0)
			break;
		if (pcs != NULL)
			pcs[n] = ra.value;
		n++;
		next = isa_nofault_load64(fp - FRAME_FP_OFFSET);
		if (next.fault || next.value <= fp)
			break;
		fp = next.value;
	}
	return n;
}
