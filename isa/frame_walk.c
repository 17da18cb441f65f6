/*
 * isa/frame_walk.c: the frame-pointer stack walk, shared by every ISA.
 *
 * The three processors differ only in where a frame record sits relative
 * to the frame pointer, which each isa/<isa>/isa_regs.h states:
 * ISA_FRAME_RA_OFF and ISA_FRAME_FP_OFF are the signed offsets of the
 * saved return address and of the caller's frame pointer, and
 * ISA_FRAME_FP_MIN is the smallest frame pointer worth reading (below it
 * the offsets would wrap).  Every load is nofault; the walk is bounded by
 * `max` and requires each frame to lie above the previous one, so a
 * corrupt chain ends the walk instead of looping or faulting.
 * Probe context: yes.
 */
#include "isa.h"

static bool
frame_ok(uintptr_t fp)
{
	return fp >= ISA_FRAME_FP_MIN && (fp & 7) == 0;
}

uint64_t
isa_frame_return_address(uintptr_t fp)
{
	isa_nofault_result_t r;

	if (!frame_ok(fp))
		return 0;
	r = isa_nofault_load64(fp + ISA_FRAME_RA_OFF);
	return r.fault ? 0 : r.value;
}

uintptr_t
isa_frame_caller_fp(uintptr_t fp)
{
	isa_nofault_result_t r;

	if (!frame_ok(fp))
		return 0;
	r = isa_nofault_load64(fp + ISA_FRAME_FP_OFF);
	return r.fault ? 0 : (uintptr_t)r.value;
}

int
isa_fp_walk(uintptr_t fp, uint64_t *pcs, int max)
{
	isa_nofault_result_t next, ra;
	int n = 0;

	while (n < max && frame_ok(fp)) {
		ra = isa_nofault_load64(fp + ISA_FRAME_RA_OFF);
		if (ra.fault || ra.value == 0)
			break;
		if (pcs != NULL)
			pcs[n] = ra.value;
		n++;
		next = isa_nofault_load64(fp + ISA_FRAME_FP_OFF);
		if (next.fault || next.value <= fp)
			break;
		fp = next.value;
	}
	return n;
}
