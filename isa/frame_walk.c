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

/*
 * No kernel this tree runs on maps the first page, so a "return address"
 * there is not code but a word of something that is no frame record (C
 * library code built without frame pointers keeps data in s0/x29/rbp, and
 * the chain followed it): the walk ends instead of reporting it (seen on
 * riscv64 below __libc_start_main).
 */
#define FRAME_RA_MIN 4096

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

/*
 * One frame of the walk: fp's return address into *ra, and its caller's
 * frame pointer, or 0 where the walk ends after this frame (a fault, or a
 * caller frame that does not lie above this one).  False if fp has no
 * frame record (misaligned, unreadable, or a return address in page zero).
 */
static bool
frame_step(uintptr_t fp, uint64_t *ra, uintptr_t *next)
{
	isa_nofault_result_t r;

	if (!frame_ok(fp))
		return false;
	r = isa_nofault_load64(fp + ISA_FRAME_RA_OFF);
	if (r.fault || r.value < FRAME_RA_MIN)
		return false;
	*ra = r.value;
	r = isa_nofault_load64(fp + ISA_FRAME_FP_OFF);
	*next = r.fault || r.value <= fp ? 0 : (uintptr_t)r.value;
	return true;
}

int
isa_fp_walk(uintptr_t fp, uint64_t *pcs, int max)
{
	uint64_t ra;
	int n = 0;

	while (n < max && frame_step(fp, &ra, &fp)) {
		if (pcs != NULL)
			pcs[n] = ra;
		n++;
	}
	return n;
}

uintptr_t
isa_fp_skip(uintptr_t fp, int n)
{
	uint64_t ra;

	for (; n > 0 && fp != 0; n--)
		if (!frame_step(fp, &ra, &fp))
			return 0;
	return fp;
}
